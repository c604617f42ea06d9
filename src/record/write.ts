import { existsSync, mkdirSync, renameSync } from 'node:fs';
import { mkdir, open, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { DataError, DevboyError } from '../errors.js';
import { writeFileAtomic } from '../io/atomic-write.js';
import { asidePathIn, removeStaleTemps, tempPathIn, trackTemp, untrackTemp } from '../io/temp-files.js';
import { readExchange, scanCorpus, type SkippedRecording } from '../replay/corpus.js';
import type { CorpusFile } from './corpus-file.js';
import { assertInside, safePathComponent } from './safe-name.js';

/**
 * Write a project's recordings so that `<out>/<provider>/<project>/` holds either the previous
 * recording or the whole new one: files go to a hidden folder beside it, which then replaces it.
 * Provider, project and file names become single safe path components, and every path written is
 * checked to be inside `outDir`, whatever the input said (`--project ../../x`, `/abs`, ...).
 */
export async function writeProjectAtomically(
  outDir: string,
  provider: string,
  project: string,
  files: readonly CorpusFile[],
): Promise<string> {
  const providerDir = join(outDir, safePathComponent(provider));
  const projectDir = join(providerDir, safePathComponent(project));
  assertInside(outDir, projectDir);
  try {
    await mkdir(providerDir, { recursive: true });
  } catch (err) {
    throw new DataError(
      `cannot create the output folder: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      { file: providerDir },
      err,
    );
  }
  await removeStaleTemps(providerDir);
  const staging = tempPathIn(providerDir);
  try {
    // Made and listed in one turn of the event loop, so an interrupt never misses it.
    mkdirSync(staging);
    trackTemp(staging);
    for (const file of files) await writeDurably(join(staging, safePathComponent(file.name)), file.text);
    await readBack(staging, `${safePathComponent(provider)}/${safePathComponent(project)}`, files);
    const previous = existsSync(projectDir) ? asidePathIn(providerDir) : undefined;
    // Both renames in one turn of the event loop: an interrupt cannot fall between them and leave the
    // project moved aside but not replaced. (Only SIGKILL can; the aside folder then keeps the old one.)
    if (previous) renameSync(projectDir, previous);
    try {
      renameSync(staging, projectDir);
      untrackTemp(staging);
    } catch (err) {
      if (previous) renameSync(previous, projectDir);
      throw err;
    }
    if (previous) {
      trackTemp(previous);
      await rm(previous, { recursive: true, force: true });
      untrackTemp(previous);
    }
    return projectDir;
  } catch (err) {
    await rm(staging, { recursive: true, force: true });
    untrackTemp(staging);
    if (err instanceof DataError) throw err;
    throw new DataError(
      `cannot write the recording: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`,
      { file: projectDir },
      err,
    );
  }
}

/**
 * Every staged file, read back as a corpus read will read it: a recording that would not replay
 * (a body past the depth or size limits, anything the reader refuses) must not replace a good one.
 * `folder` is the project's place in the corpus, for naming the file as it will be named.
 */
async function readBack(staging: string, folder: string, files: readonly CorpusFile[]): Promise<void> {
  for (const file of files) {
    const name = safePathComponent(file.name);
    try {
      await readExchange(join(staging, name), `${folder}/${name}`);
    } catch (err) {
      if (!(err instanceof DevboyError)) throw err;
      const at =
        err.location.line !== undefined ? `:${err.location.line}${err.location.col !== undefined ? `:${err.location.col}` : ''}` : '';
      throw new DataError(`the new recording would not read back (${folder}/${name}${at}: ${err.message}); the earlier recording is kept`);
    }
  }
}

/** A new file in the (private) staging folder, on disk before the folder is renamed into place. */
async function writeDurably(path: string, text: string): Promise<void> {
  const handle = await open(path, 'wx');
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

const MANIFEST_COLUMNS = ['file', 'provider', 'project', 'method', 'url', 'status', 'items', 'bytes', 'license', 'envelope', 'content'];

/**
 * Rewrite `<out>/MANIFEST.tsv` to list every recording under `out`, as the shared corpus does.
 * A recording that cannot be read (another tool's file, a folder left by an older devboy) is left
 * out and returned with its reason: one bad file must not make every later `record` fail.
 */
export async function writeManifest(outDir: string): Promise<SkippedRecording[]> {
  const rows = [MANIFEST_COLUMNS.join('\t')];
  const { projects, skipped } = await scanCorpus(outDir);
  for (const project of projects) {
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
  return skipped;
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
