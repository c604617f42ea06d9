import type { CorpusEntry } from '../replay/exchange.js';
import type { UnmeasuredRecording } from '../replay/corpus.js';
import { resolveDuplicates } from '../replay/match.js';
import type { DatasetKind, ProviderName } from '../model/index.js';
import { PROVIDERS } from './registry.js';
import type { EndpointCall } from './types.js';

/** The calls that rebuild one dataset from a corpus. */
export interface PlannedDataset {
  kind: DatasetKind;
  label: string;
  calls: EndpointCall[];
  /** The recordings the calls start from (corpus-relative files), for naming them when one fails. */
  files: string[];
  /** The dataset of the items of another kind its first API page holds (a mixed issues list's pull requests). */
  alongside?: { kind: DatasetKind; label: string };
}

/** A project's plan, and what becomes of the recordings no planned call starts from. */
export interface ProjectPlan {
  datasets: PlannedDataset[];
  /** Recordings that will not be measured whatever the replay does, and why. */
  notPlanned: UnmeasuredRecording[];
  /** Recordings of later API pages: measured when a planned first API page leads to them. */
  laterPages: string[];
}

/** What "not a list devboy reads" means, for the reason a report gives. */
export const READ_KINDS = 'issue, PR/MR, diff, comment and discussion lists';

/**
 * Plan the client calls that replay what a project's corpus holds:
 * - every distinct recorded GET that was answered with 2xx (duplicates resolved as the replay
 *   server resolves them) and that devboy understands becomes one call;
 * - recordings of later API pages (`page` > 1, `startAt` > 0, a `nextPageToken`) are not starting
 *   points: they are reached by following the first API page, and join its dataset;
 * - each list call is one dataset; single-object GETs (one issue, one pull/merge request) of the
 *   same kind join one dataset, in URL order;
 * - every other recording is listed with why no run measures it (notPlanned).
 */
export function planProject(provider: ProviderName, entries: readonly CorpusEntry[]): ProjectPlan {
  const module = PROVIDERS[provider];
  const lists: PlannedDataset[] = [];
  const singles = new Map<DatasetKind, { label: string; call: EndpointCall; file: string }[]>();
  const notPlanned: UnmeasuredRecording[] = [];
  const laterPages: string[] = [];
  const { answered, shadowed } = resolveDuplicates(entries);
  for (const entry of answered) {
    const { request, response } = entry.exchange;
    const file = entry.file;
    if (request.method !== 'GET') {
      notPlanned.push({ file, cause: 'not-get', reason: `a ${request.method} request: devboy measures what GET requests list` });
      continue;
    }
    if (response.status < 200 || response.status > 299) {
      notPlanned.push({ file, cause: 'error-answer', reason: `answered ${response.status}: devboy measures successful answers` });
      continue;
    }
    const label = `GET ${pathAndQuery(request.url)}`;
    const calls = module.classify(request.url);
    if (calls.length === 0) notPlanned.push({ file, cause: 'not-a-list', reason: `not a list devboy reads (it reads ${READ_KINDS})` });
    let later = false;
    for (const call of calls) {
      if (call.single) {
        const group = singles.get(call.kind) ?? [];
        group.push({ label, call, file });
        singles.set(call.kind, group);
      } else if (isFirstPage(call.params)) {
        const kind = module.recordedKind?.(call, response.body) ?? call.kind;
        const other = module.recordedAlongside?.(call, response.body);
        lists.push({
          kind,
          label,
          calls: [call],
          files: [file],
          ...(other ? { alongside: { kind: other.kind, label: alongsideLabel(label, other.what) } } : {}),
        });
      } else later = true;
    }
    if (later) laterPages.push(file);
  }
  for (const { entry, by } of shadowed)
    notPlanned.push({
      file: entry.file,
      cause: 'duplicate',
      reason: `the same request as ${by.file}, which answers it (the newer or later recording)`,
    });
  for (const [kind, group] of singles) {
    group.sort((a, b) => compare(a.label, b.label));
    const label = group.length === 1 ? group[0]!.label : `${group[0]!.label} (+${group.length - 1} more single ${kind})`;
    lists.push({ kind, label, calls: group.map((g) => g.call), files: group.map((g) => g.file) });
  }
  return { datasets: lists, notPlanned, laterPages };
}

function isFirstPage(params: Record<string, string>): boolean {
  const page = params['page'];
  const startAt = params['startAt'];
  return (
    (page === undefined || Number(page) <= 1) && (startAt === undefined || Number(startAt) === 0) && params['nextPageToken'] === undefined
  );
}

export function pathAndQuery(url: string): string {
  if (!/^https?:\/\//i.test(url)) return url;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** How a dataset of the items of another kind a list held is labelled: `GET /repos/o/r/issues?state=all (its pull requests)`. */
export function alongsideLabel(label: string, what: string): string {
  return `${label} (its ${what})`;
}

/** Code-unit order: the same on every machine and locale. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
