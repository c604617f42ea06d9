import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DataError } from '../errors.js';

/**
 * Write a file so that readers see either the old content or the whole new content, never a part:
 * write a temporary file beside it, flush it to disk, then rename it over the target.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const tmp = join(dirname(path), `.devboy-tmp-${process.pid}-${randomBytes(4).toString('hex')}-${basename(path)}`);
  let handle;
  try {
    handle = await open(tmp, 'wx', 0o644);
    await handle.writeFile(data);
    await handle.sync();
    await handle.close();
    handle = undefined;
    await rename(tmp, path);
  } catch (err) {
    if (handle) await handle.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    const code = (err as NodeJS.ErrnoException).code;
    const why = code === 'ENOENT' ? 'no such directory' : code === 'EACCES' ? 'permission denied' : (code ?? (err as Error).message);
    throw new DataError(`cannot write: ${why}`, { file: path }, err);
  }
}
