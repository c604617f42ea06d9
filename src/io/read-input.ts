import { readFile, stat } from 'node:fs/promises';
import { DataError, UsageError } from '../errors.js';

export interface Input {
  /** What errors call it: the path as given, or "<stdin>". */
  name: string;
  /** File path when read from a file. */
  path?: string;
  text: string;
}

/** Read a file, or standard input for "-", as UTF-8 without a byte-order mark. */
export async function readInput(source: string, stdin: NodeJS.ReadableStream = process.stdin): Promise<Input> {
  if (source === '-') return { name: '<stdin>', text: stripBom(await readStream(stdin)) };
  await requireFile(source);
  try {
    return { name: source, path: source, text: stripBom(await readFile(source, 'utf8')) };
  } catch (err) {
    throw new DataError(`cannot read: ${(err as NodeJS.ErrnoException).code ?? (err as Error).message}`, { file: source });
  }
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

async function readStream(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}

function stripBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}
