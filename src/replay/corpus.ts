import { readdir, readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DataError, UsageError } from '../errors.js';
import { parseJson } from '../json/parse.js';
import { isJsonObject, type JsonObject } from '../json/types.js';
import type { CorpusEntry, RecordedExchange } from './exchange.js';

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

/**
 * Read `<dir>/<provider>/<project>/*.json`. Provider and project come from the folder names, as
 * the corpus README defines them. Folders with no project folders inside (LICENSES) yield nothing.
 */
export async function readCorpus(dir: string, filter: CorpusFilter = {}): Promise<CorpusProject[]> {
  const projects: CorpusProject[] = [];
  for (const ref of await listCorpusProjects(dir, filter)) projects.push(await readCorpusProject(dir, ref));
  return projects;
}

/** A project folder of a corpus and its recording files, not read yet. */
export interface CorpusProjectRef {
  provider: string;
  project: string;
  /** Sorted file names. */
  files: string[];
}

/** The project folders readCorpus would read, in its order, without reading any recording. */
export async function listCorpusProjects(dir: string, filter: CorpusFilter = {}): Promise<CorpusProjectRef[]> {
  await requireDirectory(dir);
  const refs: CorpusProjectRef[] = [];
  for (const provider of filter.providers ?? (await subdirectories(dir))) {
    if (filter.provider !== undefined && filter.provider !== provider) continue;
    const providerDir = join(dir, provider);
    for (const project of await subdirectories(providerDir)) {
      if (filter.project !== undefined && filter.project !== project) continue;
      const files = (await readdir(join(providerDir, project))).filter((f) => f.endsWith('.json') && !f.startsWith('.')).sort();
      if (files.length > 0) refs.push({ provider, project, files });
    }
  }
  return refs;
}

/** Read one listed project's recordings. */
export async function readCorpusProject(dir: string, ref: CorpusProjectRef): Promise<CorpusProject> {
  const entries: CorpusEntry[] = [];
  for (const name of ref.files) {
    const file = `${ref.provider}/${ref.project}/${name}`;
    entries.push({ file, exchange: await readExchange(join(dir, file), file) });
  }
  return { provider: ref.provider, project: ref.project, entries };
}

async function requireDirectory(dir: string): Promise<void> {
  try {
    if ((await stat(dir)).isDirectory()) return;
  } catch {
    // reported below
  }
  throw new UsageError('no such corpus directory', { file: dir });
}

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
    if ((await stat(join(dir, name))).isDirectory()) out.push(name);
  }
  return out;
}

async function readExchange(path: string, file: string): Promise<RecordedExchange> {
  const value = parseJson(await readFile(path, 'utf8'), path);
  return validateExchange(value, path, file);
}

/** Check the shape of one recording; errors name the file and the missing part. */
export function validateExchange(value: unknown, path: string, file = path): RecordedExchange {
  const fail = (what: string): never => {
    throw new DataError(`not a recorded exchange: ${what}`, { file: path });
  };
  if (!isJsonObject(value)) return fail('expected a JSON object');
  const request = value['request'];
  const response = value['response'];
  if (!isJsonObject(request)) return fail('missing "request"');
  if (typeof request['method'] !== 'string') return fail('missing "request.method"');
  if (typeof request['url'] !== 'string') return fail('missing "request.url"');
  if (!isJsonObject(response)) return fail('missing "response"');
  if (typeof response['status'] !== 'number') return fail('missing "response.status"');
  const headers = response['headers'] ?? {};
  if (!isJsonObject(headers) || Object.values(headers).some((v) => typeof v !== 'string'))
    return fail('"response.headers" must map names to strings');
  if (!('body' in response)) return fail('missing "response.body"');
  const [provider, project] = file.split('/');
  const lowerHeaders: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) lowerHeaders[k.toLowerCase()] = v as string;
  return {
    provider: typeof value['provider'] === 'string' ? value['provider'] : (provider ?? ''),
    project: typeof value['project'] === 'string' ? value['project'] : (project ?? ''),
    request: { method: request['method'].toUpperCase(), url: request['url'] },
    response: { status: response['status'], headers: lowerHeaders, body: response['body'] ?? null },
    provenance: isJsonObject(value['provenance']) ? (value['provenance'] as JsonObject) : {},
  };
}
