import { editDistance } from '../text/edit-distance.js';
import { recordedAtMs, type CorpusEntry } from './exchange.js';

/**
 * Which recording answers a request. Recordings come from many tools (betamax, VCR, nock, devboy
 * itself), each adding or leaving out its own defaults, so an exact URL match is too strict:
 *
 * 1. Method and path must match. Paths compare after percent-decoding unreserved characters
 *    (`gitlab%2Dorg` = `gitlab-org`; `%2F` stays distinct from `/`) and dropping a trailing slash.
 *    A GitLab `/api/v4/...` request may be answered by a `/api/v3/...` recording of the same path
 *    when no v4 recording matches: Gitbeaker only speaks v4, and v3 servers no longer exist.
 *    Likewise a `/repos/...` request may be answered by a GitHub Enterprise recording of
 *    `/api/v3/repos/...` (Octokit is pointed at the server's root).
 * 2. Position parameters must agree, with their defaults filled in: `page` (1), `startAt` (0),
 *    `nextPageToken`, `after`, `before`, `cursor` (absent). A different page is a different answer.
 * 3. Any other parameter present on both sides must have the same value, both decoded as form
 *    encoding (`+` is a space, `%2B` a plus: what GitHub and the others read).
 *    One present on only one side (`per_page`, `state`, `fields`, ...) is tolerated.
 * 4. Among the survivors, the fewest one-sided parameters wins; then the newest recording
 *    (`provenance.recorded_at`; no date counts as oldest); then the later file name.
 *
 * Credentials in the query (`access_token`, `private_token`) are ignored entirely.
 */

const POSITION_DEFAULTS: Readonly<Record<string, string>> = {
  page: '1',
  startAt: '0',
  nextPageToken: '',
  after: '',
  before: '',
  cursor: '',
};
const IGNORED_PARAMS = new Set(['access_token', 'private_token']);

export interface RequestKey {
  method: string;
  path: string;
  query: Map<string, string>;
}

export interface Recording {
  key: RequestKey;
  recordedAt: number;
  order: number;
  entry: CorpusEntry;
}

export interface Match {
  recording: Recording;
  /** Parameters present on only one side. */
  oneSided: string[];
}

export function requestKey(method: string, url: string): RequestKey {
  const parsed = new URL(url, 'http://replay.invalid');
  const query = new Map<string, string>();
  for (const [name, value] of parsed.searchParams) {
    if (IGNORED_PARAMS.has(name)) continue;
    query.set(name, query.has(name) ? `${query.get(name)},${value}` : value);
  }
  return { method: method.toUpperCase(), path: normalizePath(parsed.pathname), query };
}

export function normalizePath(path: string): string {
  const decoded = path.replace(/%([0-9a-fA-F]{2})/g, (escape: string, hex: string) => {
    const char = String.fromCharCode(parseInt(hex, 16));
    return /[A-Za-z0-9\-._~]/.test(char) ? char : escape.toUpperCase();
  });
  return decoded.length > 1 ? decoded.replace(/\/+$/, '') : decoded;
}

/**
 * A project's recordings, grouped by method and path: a request is compared only with the
 * recordings of its own path (the matching rule's first step), so replaying a project of n
 * recordings costs about n comparisons, not n per request (n^2 in all; 4,000 recordings took 229 s).
 */
export class RecordingIndex {
  private readonly byRoute = new Map<string, Recording[]>();

  private constructor(readonly all: readonly Recording[]) {
    for (const recording of all) {
      const route = routeOf(recording.key.method, recording.key.path);
      const list = this.byRoute.get(route);
      if (list) list.push(recording);
      else this.byRoute.set(route, [recording]);
    }
  }

  static of(recordings: readonly Recording[]): RecordingIndex {
    return new RecordingIndex(recordings);
  }

  /** The recordings of one method and (normalized) path, in corpus order. */
  onRoute(method: string, path: string): readonly Recording[] {
    return this.byRoute.get(routeOf(method, path)) ?? [];
  }
}

function routeOf(method: string, path: string): string {
  return `${method} ${path}`;
}

export function indexRecordings(entries: readonly CorpusEntry[]): RecordingIndex {
  return RecordingIndex.of(
    entries.map((entry, order) => ({
      key: requestKey(entry.exchange.request.method, entry.exchange.request.url),
      recordedAt: recordedAtMs(entry.exchange),
      order,
      entry,
    })),
  );
}

/** The recording that answers `method url`, or undefined. */
export function matchRequest(recordings: RecordingIndex, method: string, url: string): Match | undefined {
  const request = requestKey(method, url);
  const direct = bestOf(recordings, request, request.path);
  if (direct) return direct;
  const v3 = request.path.replace(/^\/api\/v4\//, '/api/v3/');
  if (v3 !== request.path) return bestOf(recordings, request, v3);
  return bestOf(recordings, request, `/api/v3${request.path}`);
}

function bestOf(recordings: RecordingIndex, request: RequestKey, path: string): Match | undefined {
  let best: Match | undefined;
  for (const recording of recordings.onRoute(request.method, path)) {
    const oneSided = compareQueries(request.query, recording.key.query);
    if (oneSided === undefined) continue;
    if (!best || better({ recording, oneSided }, best)) best = { recording, oneSided };
  }
  return best;
}

function better(a: Match, b: Match): boolean {
  if (a.oneSided.length !== b.oneSided.length) return a.oneSided.length < b.oneSided.length;
  if (a.recording.recordedAt !== b.recording.recordedAt) return a.recording.recordedAt > b.recording.recordedAt;
  return a.recording.order > b.recording.order;
}

/** Parameters present on one side only, or undefined when the two disagree on a value. */
function compareQueries(request: Map<string, string>, recorded: Map<string, string>): string[] | undefined {
  const oneSided: string[] = [];
  for (const name of new Set([...request.keys(), ...recorded.keys()])) {
    const a = request.get(name);
    const b = recorded.get(name);
    const fallback = POSITION_DEFAULTS[name];
    if (fallback !== undefined) {
      if ((a ?? fallback) !== (b ?? fallback)) return undefined;
    } else if (a !== undefined && b !== undefined) {
      if (a !== b) return undefined;
    } else {
      oneSided.push(name);
    }
  }
  return oneSided.sort();
}

/**
 * The recording each distinct request of a corpus is answered with: what a client replaying the
 * corpus will get. Requests are the same when method, path and query agree (defaults filled in).
 */
export function selectAnswered(entries: readonly CorpusEntry[]): CorpusEntry[] {
  return resolveDuplicates(entries).answered;
}

/**
 * selectAnswered, and for every other recording of a request already recorded, the recording
 * that answers that request instead (it is never replayed: reports name it as a duplicate).
 */
export function resolveDuplicates(entries: readonly CorpusEntry[]): {
  answered: CorpusEntry[];
  shadowed: { entry: CorpusEntry; by: CorpusEntry }[];
} {
  const chosen = new Map<string, Recording>();
  const all = indexRecordings(entries).all;
  for (const recording of all) {
    const id = canonicalId(recording.key);
    const current = chosen.get(id);
    if (!current || better({ recording, oneSided: [] }, { recording: current, oneSided: [] })) chosen.set(id, recording);
  }
  const answered = new Set([...chosen.values()]);
  const shadowed = all.filter((r) => !answered.has(r)).map((r) => ({ entry: r.entry, by: chosen.get(canonicalId(r.key))!.entry }));
  return { answered: [...answered].sort((a, b) => a.order - b.order).map((r) => r.entry), shadowed };
}

function canonicalId(key: RequestKey): string {
  const params = [...key.query.entries()]
    .filter(([name, value]) => POSITION_DEFAULTS[name] !== value)
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `${key.method} ${key.path}?${params.map(([n, v]) => `${n}=${v}`).join('&')}`;
}

/** The recorded URL most like a request that has none, to tell the user what the corpus does hold. */
export function closestRecording(recordings: RecordingIndex, method: string, url: string): Recording | undefined {
  const request = requestKey(method, url);
  const target = `${request.path}?${[...request.query].map(([n, v]) => `${n}=${v}`).join('&')}`;
  let best: { recording: Recording; distance: number } | undefined;
  // Every recording of the method: this runs only for a request nothing answers (the 404's hint).
  for (const recording of recordings.all) {
    if (recording.key.method !== request.method) continue;
    const text = `${recording.key.path}?${[...recording.key.query].map(([n, v]) => `${n}=${v}`).join('&')}`;
    const distance = editDistance(target, text);
    if (!best || distance < best.distance) best = { recording, distance };
  }
  return best?.recording;
}
