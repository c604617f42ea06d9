import { Args } from './oclif.js';
import { UsageError } from '../errors.js';

/**
 * The FILE argument of commands that read one input (convert, format, session): optional, as with
 * no FILE they read piped standard input, like the TOON CLI. oclif's own stdin reading is turned
 * off: it waits 10 ms for a pipe and makes its text the *name* of the file (`{"a":1}: no such file`).
 */
export function inputFileArg(description: string) {
  return Args.string({ description, required: false, ignoreStdin: true });
}

/** The source to read: FILE as given, else `-` when data is piped in; on a terminal, a usage error. */
export function inputSource(file: string | undefined, stdin: { isTTY?: boolean } = process.stdin): string {
  if (file !== undefined) return file;
  if (!stdin.isTTY) return '-';
  throw new UsageError('no input: give a FILE, or - to read standard input');
}
