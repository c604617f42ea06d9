import { createReadStream } from 'node:fs';
import { requireFile } from './read-input.js';

export interface InputStream {
  /** What errors call it: the path as given, or "<stdin>". */
  name: string;
  path?: string;
  stream: NodeJS.ReadableStream;
}

/** Open a file, or standard input for "-", to be read piece by piece (never whole). */
export async function openInputStream(source: string, stdin: NodeJS.ReadableStream = process.stdin): Promise<InputStream> {
  if (source === '-') return { name: '<stdin>', stream: stdin };
  await requireFile(source);
  return { name: source, path: source, stream: createReadStream(source) };
}
