import { createReadStream } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { DataError, UsageError } from '../errors.js';
import { maxInputBytes, overLimitMessage } from './input-limit.js';
import { decodeUtf8 } from './utf8.js';

export interface Input {
  /** What errors call it: the path as given, or "<stdin>". */
  name: string;
  /** File path when read from a file. */
  path?: string;
  text: string;
}

/**
 * Read a file, or standard input for "-", as UTF-8 without a byte-order mark. Bytes that are not
 * UTF-8 are an error naming the first bad byte, never replaced: the text is what the bytes say.
 */
export async function readInput(source: string, stdin: NodeJS.ReadableStream = process.stdin): Promise<Input> {
  const limit = maxInputBytes();
  if (source === '-') return { name: '<stdin>', text: decodeUtf8(await readStream(stdin, limit), '<stdin>') };
  const size = await requireFile(source);
  if (size > limit) throw new DataError(overLimitMessage(size, limit), { file: source });
  if (size < 0) return { name: source, path: source, text: decodeUtf8(await readStream(createReadStream(source), limit, source), source) };
  let bytes: Buffer;
  try {
    bytes = await readFile(source);
  } catch (err) {
    throw new DataError(`cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { file: source });
  }
  return { name: source, path: source, text: decodeUtf8(bytes, source) };
}

/** A path that names nothing, or a directory, is a usage error (exit 2); other failures are data errors. */
export async function requireFile(source: string): Promise<number> {
  let info;
  try {
    info = await stat(source);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError('no such file', { file: source });
    throw new DataError(`cannot read: ${code ?? (err as Error).message}`, { file: source });
  }
  if (info.isDirectory()) throw new UsageError('is a directory, expected a file', { file: source });
  // A FIFO or device has no size to check up front (-1): it is read as a stream, bounded as it goes.
  return info.isFile() ? info.size : -1;
}

/** All of a stream, refusing it once it passes `limit` bytes (standard input has no size to check first). */
async function readStream(stream: NodeJS.ReadableStream, limit: number, name = '<stdin>'): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stream) {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += bytes.length;
    if (size > limit) throw new DataError(overLimitMessage(undefined, limit), { file: name });
    chunks.push(bytes);
  }
  return Buffer.concat(chunks);
}
