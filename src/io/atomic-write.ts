import { openFileSink } from './text-sink.js';

/**
 * Write a whole output to `path` as `-o` means it: a regular file is replaced atomically (readers see
 * the old content or all of the new, never a part; symlinks are followed and stay links; the file's
 * mode is kept); standard output, devices, FIFOs and sockets are written directly. See openFileSink.
 */
export async function writeFileAtomic(path: string, data: string): Promise<void> {
  const sink = await openFileSink(path);
  try {
    sink.write(data);
    await sink.commit();
  } catch (err) {
    await sink.abort();
    throw err;
  }
}
