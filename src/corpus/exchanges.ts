import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { DataError } from '../errors.js';
import { parseJson } from '../json/parse.js';
import { isJsonObject, type JsonValue } from '../json/types.js';

/** One recorded HTTP exchange, in the corpus format (see ../shared/corpus/README.md). */
export interface Exchange {
  /** Path relative to the corpus root, e.g. `github/betamaxpy__betamax/001_GET_....json`. */
  file: string;
  provider: string;
  project: string;
  request: { method: string; url: string };
  response: { status: number; headers: Record<string, string>; body: JsonValue };
  provenance: Record<string, JsonValue>;
}

/** Every exchange file under a corpus folder, sorted by path so runs are deterministic. */
export async function listExchangeFiles(root: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (dir: string): Promise<void> => {
    const entries = await readdir(dir, { withFileTypes: true });
    for (const e of entries) {
      if (e.isDirectory()) {
        if (e.name !== 'LICENSES') await walk(join(dir, e.name));
      } else if (e.name.endsWith('.json')) {
        out.push(join(dir, e.name));
      }
    }
  };
  await walk(root);
  return out.sort();
}

export async function readExchange(root: string, path: string): Promise<Exchange> {
  const file = relative(root, path);
  const doc = parseJson(await readFile(path, 'utf8'), file);
  if (!isJsonObject(doc) || !isJsonObject(doc.request) || !isJsonObject(doc.response)) {
    throw new DataError('not a recorded exchange (expected request and response objects)', { file });
  }
  const { request, response } = doc;
  if (typeof request.url !== 'string' || typeof response.status !== 'number') {
    throw new DataError('recorded exchange lacks request.url or response.status', { file });
  }
  return {
    file,
    provider: String(doc.provider ?? file.split('/')[0]),
    project: String(doc.project ?? file.split('/')[1]),
    request: { method: String(request.method ?? 'GET'), url: request.url },
    response: {
      status: response.status,
      headers: isJsonObject(response.headers) ? (Object.fromEntries(Object.entries(response.headers).map(([k, v]) => [k.toLowerCase(), String(v)])) as Record<string, string>) : {},
      body: response.body ?? null,
    },
    provenance: isJsonObject(doc.provenance) ? doc.provenance : {},
  };
}

export async function readCorpus(root: string): Promise<Exchange[]> {
  const files = await listExchangeFiles(root);
  return Promise.all(files.map((f) => readExchange(root, f)));
}
