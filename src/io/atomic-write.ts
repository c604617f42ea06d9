import { openFileSink } from './text-sink.js';

/**
 * Write a whole output to `path` as `-o` means it: a regular file is replaced atomically (readers see
 * the old content or all of the new, never a part; symlinks are followed and stay links; the file's
 * mode is kept); standard output, devices, FIFOs and sockets are written directly. See openFileSink.
 * `data` may come in pieces. `createFolders`: a missing folder on the way is made (an export's
 * `results/` in a new repository).
 */
export async function writeFileAtomic(
  path: string,
  data: string | Iterable<string>,
  options: { createFolders?: boolean } = {},
): Promise<void> {
  const sink = await openFileSink(path, undefined, options);
  try {
    if (typeof data === 'string') sink.write(data);
    else {
      // Written as made, so that output of tens of megabytes is never held whole.
      for (const piece of data) {
        sink.write(piece);
        await sink.flush();
      }
    }
    await sink.commit();
  } catch (err) {
    await sink.abort();
    throw err;
  }
}
