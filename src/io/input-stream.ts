import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { DataError, UsageError } from '../errors.js';

export interface InputStream {
  /** What errors call it: the path as given, or "<stdin>". */
  name: string;
  path?: string;
  stream: NodeJS.ReadableStream;
}

/** Open a file, or standard input for "-", to be read piece by piece (never whole). */
export async function openInputStream(source: string, stdin: NodeJS.ReadableStream = process.stdin): Promise<InputStream> {
  if (source === '-') return { name: '<stdin>', stream: stdin };
  let info;
  try {
    info = await stat(source);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError('no such file', { file: source });
    throw new DataError(`cannot read: ${code ?? (err as Error).message}`, { file: source });
  }
  if (info.isDirectory()) throw new UsageError('is a directory, expected a file', { file: source });
  return { name: source, path: source, stream: createReadStream(source) };
}
