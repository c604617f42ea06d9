import { readFile, stat } from 'node:fs/promises';
import { DataError, UsageError } from '../errors.js';
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
  if (source === '-') return { name: '<stdin>', text: decodeUtf8(await readStream(stdin), '<stdin>') };
  await requireFile(source);
  let bytes: Buffer;
  try {
    bytes = await readFile(source);
  } catch (err) {
    throw new DataError(`cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { file: source });
  }
  return { name: source, path: source, text: decodeUtf8(bytes, source) };
}

/** A path that names nothing, or a directory, is a usage error (exit 2); other failures are data errors. */
export async function requireFile(source: string): Promise<void> {
  let info;
  try {
    info = await stat(source);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new UsageError('no such file', { file: source });
    throw new DataError(`cannot read: ${code ?? (err as Error).message}`, { file: source });
  }
  if (info.isDirectory()) throw new UsageError('is a directory, expected a file', { file: source });
}

async function readStream(stream: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks);
}
