import { escapeInvisible } from './escape/invisible.js';

export { escapeInvisible };

/**
 * Errors the CLI turns into one line and an exit code.
 * The library throws these; commands never print stack traces.
 */

export const EXIT_DATA = 1;
export const EXIT_USAGE = 2;

export interface Location {
  file?: string;
  line?: number;
  col?: number;
}

export class DevboyError extends Error {
  readonly exitCode: number;
  readonly location: Location;

  constructor(message: string, options: { exitCode?: number; location?: Location; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'DevboyError';
    this.exitCode = options.exitCode ?? EXIT_DATA;
    this.location = options.location ?? {};
  }

  /** `file:line:col: message`, with whatever parts of the location are known. */
  oneLine(): string {
    const { file, line, col } = this.location;
    let where = file ?? '';
    if (line !== undefined) where += `${where ? ':' : ''}${line}${col !== undefined ? `:${col}` : ''}`;
    return flatten(where ? `${where}: ${this.message}` : this.message);
  }

  /** The same error, now knowing which file it came from (and still a DataError or UsageError if it was one). */
  inFile(file: string): DevboyError {
    if (this.location.file !== undefined) return this;
    return this.relocated({ ...this.location, file });
  }

  protected relocated(location: Location): DevboyError {
    const copy = new DevboyError(this.message, { exitCode: this.exitCode, location, cause: this.cause });
    copy.name = this.name;
    return copy;
  }
}

/** Bad flags or arguments: exit 2. */
export class UsageError extends DevboyError {
  constructor(message: string, location?: Location) {
    super(message, { exitCode: EXIT_USAGE, ...(location ? { location } : {}) });
    this.name = 'UsageError';
  }

  protected override relocated(location: Location): DevboyError {
    return new UsageError(this.message, location);
  }
}

/** Input that cannot be parsed, a failed verification, a provider failure: exit 1. */
export class DataError extends DevboyError {
  constructor(message: string, location?: Location, cause?: unknown) {
    super(message, { exitCode: EXIT_DATA, ...(location ? { location } : {}), cause });
    this.name = 'DataError';
  }

  protected override relocated(location: Location): DevboyError {
    return new DataError(this.message, location, this.cause);
  }
}

/** Collapse line breaks so an error is always exactly one line, and show invisible characters escaped. */
export function flatten(text: string): string {
  return escapeInvisible(text.replace(/\s*[\r\n]+\s*/g, ' ').trim());
}

/** One character of user text for a message: `'x'`, `'\n'`, `'\u0000'`, or `end of input` past the end. */
export function quoteCharAt(text: string, offset: number): string {
  if (offset >= text.length) return 'end of input';
  const c = text.codePointAt(offset)!;
  return `'${escapeInvisible(String.fromCodePoint(c))}'`;
}

/** Line and column (both 1-based, column in UTF-16 units) of an offset in a text. */
export function lineColAt(text: string, offset: number): { line: number; col: number } {
  let line = 1;
  let lineStart = 0;
  const end = Math.min(Math.max(offset, 0), text.length);
  for (let i = 0; i < end; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  return { line, col: end - lineStart + 1 };
}
