import type { Stats } from 'node:fs';
import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DataError, DevboyError, UsageError } from '../errors.js';
import { decodeUtf8 } from '../io/utf8.js';
import { parseJson } from '../json/parse.js';
import { isJsonObject, type JsonObject } from '../json/types.js';
import { unsendableResponse, type CorpusEntry, type RecordedExchange } from './exchange.js';

export interface CorpusProject {
  provider: string;
  project: string;
  /** Sorted by file name, so every later choice is deterministic. */
  entries: CorpusEntry[];
}

export interface CorpusFilter {
  /** The provider folders to read; default every folder that holds project folders. */
  providers?: readonly string[];
  provider?: string;
  project?: string;
}

/** A recording that could not be read, and why: the file relative to the corpus root. */
export interface SkippedRecording {
  file: string;
  /** Where in the file, when the reader knows. */
  line?: number;
  col?: number;
  reason: string;
}

/**
 * Why a recording that was read (and is not skipped) feeds no dataset, as a word a report can
 * group by: `not-get` (a POST, ...), `error-answer` (a 404, ...), `duplicate` (another recording of
 * the same request answers it), `not-a-list` (an endpoint devboy does not read: commits, ...),
 * `unreached-api-page` (a later API page no first API page leads to), `no-items` (the answer held no items
 * devboy measures), `dataset-failed` (part of a dataset whose replay failed, which is skipped),
 * `answered-by-another` (the replayed request was answered by another recording).
 */
export type UnmeasuredCause =
  'not-get' | 'error-answer' | 'duplicate' | 'not-a-list' | 'unreached-api-page' | 'no-items' | 'dataset-failed' | 'answered-by-another';

export const UNMEASURED_CAUSES: readonly UnmeasuredCause[] = [
  'not-get',
  'error-answer',
  'duplicate',
  'not-a-list',
  'unreached-api-page',
  'no-items',
  'dataset-failed',
  'answered-by-another',
];

/** A recording read but not measured: the file relative to the corpus root, the cause and the reason in words. */
export interface UnmeasuredRecording {
  file: string;
  cause: UnmeasuredCause;
  reason: string;
}

/** `file:line:col: reason`, as every devboy error names a place. */
export function skippedText(s: SkippedRecording): string {
  return `${s.file}${s.line !== undefined ? `:${s.line}${s.col !== undefined ? `:${s.col}` : ''}` : ''}: ${s.reason}`;
}

export interface CorpusScan {
  projects: CorpusProject[];
  skipped: SkippedRecording[];
}

/** Containers around a recorded body: the exchange object and its `response`. */
const RECORDING_WRAPPER_LEVELS = 2;

/** One recording's file may be at most this large: the largest public API page is a few MB. */
export const MAX_RECORDING_BYTES = 64 * 1024 * 1024;

/**
 * Read `<dir>/<provider>/<project>/*.json`. Provider and project come from the folder names, as
 * the corpus README defines them. Folders with no project folders inside (LICENSES) yield nothing.
 * Throws on the first recording that cannot be read (see scanCorpus for a reader that goes on).
 */
export async function readCorpus(dir: string, filter: CorpusFilter = {}): Promise<CorpusProject[]> {
  const { projects, skipped } = await scanCorpus(dir, filter);
  const first = skipped[0];
  if (first) throw new DataError(first.reason, { file: join(dir, first.file), ...lineCol(first) });
  return projects;
}

/**
 * Like readCorpus, but a recording that cannot be read (not a regular file, a symlink loop, empty,
 * binary, truncated, not a recorded exchange) is listed as skipped with the reason, and the rest
 * is read: one bad file from another tool must not hide a whole corpus.
 */
export async function scanCorpus(dir: string, filter: CorpusFilter = {}): Promise<CorpusScan> {
  const listing = await listCorpusProjects(dir, filter);
  const projects: CorpusProject[] = [];
  const skipped: SkippedRecording[] = [];
  for (const ref of listing.projects) {
    const read = await readCorpusProject(dir, ref);
    skipped.push(...read.skipped);
    if (read.project) projects.push(read.project);
  }
  skipped.push(...listing.skipped);
  return { projects, skipped };
}

/** A project folder of a corpus and its recording files, not read yet. */
export interface CorpusProjectRef {
  provider: string;
  project: string;
  /** Sorted file names. */
  files: string[];
}

/**
 * The project folders scanCorpus reads, in its order, without reading any recording (a large corpus
 * is then read a project at a time), and the folders of providers it does not read (skipped).
 */
export async function listCorpusProjects(
  dir: string,
  filter: CorpusFilter = {},
): Promise<{ projects: CorpusProjectRef[]; skipped: SkippedRecording[] }> {
  await requireDirectory(dir);
  const refs: CorpusProjectRef[] = [];
  const skipped: SkippedRecording[] = [];
  const known = filter.providers;
  for (const provider of known ?? (await subdirectories(dir))) {
    if (filter.provider !== undefined && filter.provider !== provider) continue;
    const providerDir = join(dir, provider);
    for (const project of await subdirectories(providerDir)) {
      if (filter.project !== undefined && filter.project !== project) continue;
      let names: string[];
      try {
        names = await readdir(join(providerDir, project));
      } catch (err) {
        // A folder that cannot be listed is named, and the rest of the corpus read.
        skipped.push({
          file: `${provider}/${project}/`,
          reason: `cannot list the folder (${(err as NodeJS.ErrnoException).code ?? String(err)})`,
        });
        continue;
      }
      refs.push({ provider, project, files: names.filter((f) => f.endsWith('.json') && !f.startsWith('.')).sort() });
    }
  }
  if (known && filter.provider === undefined) {
    // Recordings under a provider devboy does not read are named, not silently left out.
    for (const other of await subdirectories(dir)) {
      if (known.includes(other) || (await subdirectories(join(dir, other))).length === 0) continue;
      skipped.push({ file: `${other}/`, reason: `not a provider devboy reads (${known.join(', ')})` });
    }
  }
  return { projects: refs, skipped };
}

/** One listed project's recordings (none when every one was skipped), and those that could not be read. */
export async function readCorpusProject(
  dir: string,
  ref: CorpusProjectRef,
): Promise<{ project: CorpusProject | undefined; skipped: SkippedRecording[] }> {
  const entries: CorpusEntry[] = [];
  const skipped: SkippedRecording[] = [];
  for (const name of ref.files) {
    const file = `${ref.provider}/${ref.project}/${name}`;
    try {
      entries.push({ file, exchange: await readExchange(join(dir, file), file) });
    } catch (err) {
      if (!(err instanceof DevboyError)) throw err;
      skipped.push({ file, ...lineCol(err.location), reason: err.message });
    }
  }
  return { project: entries.length > 0 ? { provider: ref.provider, project: ref.project, entries } : undefined, skipped };
}

/** The projects a corpus holds (folder names only; no recording is read), provider by provider. */
export async function listProjects(dir: string, providers?: readonly string[]): Promise<{ provider: string; project: string }[]> {
  await requireDirectory(dir);
  const out: { provider: string; project: string }[] = [];
  for (const provider of providers ?? (await subdirectories(dir))) {
    for (const project of await subdirectories(join(dir, provider))) out.push({ provider, project });
  }
  return out;
}

async function requireDirectory(dir: string): Promise<void> {
  try {
    if ((await stat(dir)).isDirectory()) return;
  } catch {
    // reported below
  }
  throw new UsageError('no such corpus directory', { file: dir });
}

/** Folders inside `dir` (through symlinks); a symlink loop or dangling link is not a folder. */
async function subdirectories(dir: string): Promise<string[]> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const name of names.sort()) {
    if (name.startsWith('.')) continue;
    const info = await stat(join(dir, name)).catch(() => undefined);
    if (info?.isDirectory()) out.push(name);
  }
  return out;
}

function lineCol(at: { line?: number | undefined; col?: number | undefined }): { line?: number; col?: number } {
  return { ...(at.line !== undefined ? { line: at.line } : {}), ...(at.col !== undefined ? { col: at.col } : {}) };
}

/**
 * A recording's exchange; every failure is a DevboyError whose message says what is wrong (and
 * where in the file). `file` is its name relative to the corpus root (provider and project come
 * from it). `record` reads its new files back with it before they replace a project.
 */
export async function readExchange(path: string, file: string): Promise<RecordedExchange> {
  const bytes = await readRecordingBytes(path);
  if (bytes.length === 0) throw new DataError('empty file');
  // Strict: a binary file, or a tool's recording in another encoding, is named rather than garbled (a BOM is fine).
  const text = decodeUtf8(bytes, path);
  // The depth limit is the body's, as live reading applies it (http/transport.ts), not the file's.
  return validateExchange(parseJson(text, path, { wrapperLevels: RECORDING_WRAPPER_LEVELS }), path, file);
}

/**
 * The file's bytes, refusing what is not a regular file (a folder named x.json, a FIFO that would
 * block, a device) and what a symlink cannot resolve to, before opening it.
 */
async function readRecordingBytes(path: string): Promise<Buffer> {
  let info: Stats;
  try {
    info = await stat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ELOOP') throw new DataError('a symlink loop');
    if (code === 'ENOENT') throw new DataError('a symlink to nothing');
    throw new DataError(`cannot read it (${code ?? String(err)})`);
  }
  if (!info.isFile()) throw new DataError(`not a regular file (${kindOf(info)})`);
  if (info.size > MAX_RECORDING_BYTES)
    throw new DataError(`${info.size} bytes, over the ${MAX_RECORDING_BYTES / 1024 / 1024} MiB a recording may have`);
  try {
    return await readFile(path);
  } catch (err) {
    throw new DataError(`cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
  }
}

function kindOf(info: Stats): string {
  if (info.isDirectory()) return 'a folder';
  if (info.isFIFO()) return 'a FIFO';
  if (info.isSocket()) return 'a socket';
  if (info.isCharacterDevice() || info.isBlockDevice()) return 'a device';
  return 'not a file';
}

/** Check the shape of one recording; errors name the file and the missing part. */
export function validateExchange(value: unknown, path: string, file = path): RecordedExchange {
  const fail = (what: string): never => {
    throw new DataError(`not a recorded exchange: ${what}`, { file: path });
  };
  const kind = (v: unknown) => (v === undefined ? 'missing' : `${v === null ? 'null' : Array.isArray(v) ? 'an array' : `a ${typeof v}`}`);
  const want = (name: string, v: unknown, type: string): never =>
    fail(`"${name}" must be ${type}, ${v === undefined ? 'it is missing' : `got ${kind(v)}`}`);
  if (!isJsonObject(value)) return fail(`expected a JSON object, got ${kind(value)}`);
  const request = value['request'];
  const response = value['response'];
  if (!isJsonObject(request)) return want('request', request, 'an object');
  if (typeof request['method'] !== 'string') return want('request.method', request['method'], 'a string');
  if (typeof request['url'] !== 'string') return want('request.url', request['url'], 'a string');
  if (!isJsonObject(response)) return want('response', response, 'an object');
  if (typeof response['status'] !== 'number') return want('response.status', response['status'], 'a number');
  const headers = response['headers'] ?? {};
  if (!isJsonObject(headers) || Object.values(headers).some((v) => typeof v !== 'string'))
    return fail('"response.headers" must map names to strings');
  if (!('body' in response)) return fail('missing "response.body"');
  const [provider, project] = file.split('/');
  const lowerHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) lowerHeaders[k.toLowerCase()] = v as string;
  // What the replay server could not send is refused here, where the file is named, not mid-replay.
  const unsendable = unsendableResponse({ status: response['status'], headers: lowerHeaders });
  if (unsendable) return fail(unsendable);
  return {
    provider: typeof value['provider'] === 'string' ? value['provider'] : (provider ?? ''),
    project: typeof value['project'] === 'string' ? value['project'] : (project ?? ''),
    request: { method: request['method'].toUpperCase(), url: request['url'] },
    response: { status: response['status'], headers: lowerHeaders, body: response['body'] ?? null },
    provenance: isJsonObject(value['provenance']) ? (value['provenance'] as JsonObject) : {},
  };
}
