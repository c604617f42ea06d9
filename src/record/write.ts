import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { DataError } from '../errors.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import { readCorpus } from '../replay/corpus.js';
import type { CorpusFile } from './corpus-file.js';

/**
 * Write a project's recordings so that `<out>/<provider>/<project>/` holds either the previous
 * recording or the whole new one: files go to a hidden folder beside it, which then replaces it.
 */
export async function writeProjectAtomically(
  outDir: string,
  provider: string,
  project: string,
  files: readonly CorpusFile[],
): Promise<string> {
  const providerDir = join(outDir, provider);
  const projectDir = join(providerDir, project);
  const suffix = `${process.pid}-${randomBytes(4).toString('hex')}`;
  const staging = join(providerDir, `.devboy-tmp-${project}-${suffix}`);
  const previous = join(providerDir, `.devboy-old-${project}-${suffix}`);
  try {
    await mkdir(staging, { recursive: true });
  } catch (err) {
    throw new DataError(
      `cannot create the output folder: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      { file: providerDir },
      err,
    );
  }
  try {
    for (const file of files) await writeFileAtomic(join(staging, file.name), file.text);
    const existed = await exists(projectDir);
    if (existed) await rename(projectDir, previous);
    try {
      await rename(staging, projectDir);
    } catch (err) {
      if (existed) await rename(previous, projectDir);
      throw err;
    }
    if (existed) await rm(previous, { recursive: true, force: true });
    return projectDir;
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    if (err instanceof DataError) throw err;
    throw new DataError(
      `cannot write the recording: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      { file: projectDir },
      err,
    );
  }
}

const MANIFEST_COLUMNS = ['file', 'provider', 'project', 'method', 'url', 'status', 'items', 'bytes', 'license', 'envelope', 'content'];

/** Rewrite `<out>/MANIFEST.tsv` to list every recording under `out`, as the shared corpus does. */
export async function writeManifest(outDir: string): Promise<void> {
  const rows = [MANIFEST_COLUMNS.join('\t')];
  for (const project of await readCorpus(outDir)) {
    for (const { file, exchange } of project.entries) {
      const bytes = (await readFile(join(outDir, file))).length;
      const cell = (v: unknown) => String(v ?? '').replace(/[\t\r\n]+/g, ' ');
      rows.push(
        [
          file,
          project.provider,
          project.project,
          exchange.request.method,
          exchange.request.url,
          exchange.response.status,
          itemCount(exchange.response.body),
          bytes,
          exchange.provenance['license'],
          exchange.provenance['envelope'],
          exchange.provenance['content'],
        ]
          .map(cell)
          .join('\t'),
      );
    }
  }
  await writeFileAtomic(join(outDir, 'MANIFEST.tsv'), `${rows.join('\n')}\n`);
}

/** List length, as MANIFEST.tsv counts it: the body itself, or the list a search/page envelope wraps. */
function itemCount(body: unknown): number {
  if (Array.isArray(body)) return body.length;
  if (body && typeof body === 'object') {
    for (const key of ['items', 'issues', 'values', 'comments', 'changes']) {
      const list = (body as Record<string, unknown>)[key];
      if (Array.isArray(list)) return list.length;
    }
  }
  return 0;
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}
