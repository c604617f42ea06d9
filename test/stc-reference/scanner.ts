/**
 * Character-level scanning for the STC decoder: whitespace, JSON scalars, identifiers, and errors that
 * carry a line and column. Everything is done with charCodeAt so that no input can make a regular
 * expression backtrack, and so that a scalar's extent is decided by JSON's grammar alone.
 */

import { DataError, lineColAt } from '../../src/errors.js';
import type { JsonPrimitive } from '../../src/json/types.js';
import { isIdentPart, isIdentStart } from './syntax.js';

/** Returned by `scalar()` when the next character cannot start a scalar; the caller says what it wanted. */
export const NOT_SCALAR: unique symbol = Symbol('not a scalar');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

export class Scanner {
  pos = 0;
  readonly len: number;

  constructor(readonly text: string) {
    this.len = text.length;
  }

  /** Throws DataError located at `at` (default: the current position). */
  fail(message: string, at: number = this.pos): never {
    throw new DataError(`invalid STC: ${message}`, lineColAt(this.text, at));
  }

  /** What stands at `at`, for messages: `'x'`, `end of input`, or a code point for invisible characters. */
  found(at: number = this.pos): string {
    if (at >= this.len) return 'end of input';
    const c = this.text.codePointAt(at)!;
    if (c === 0xfeff) return 'a byte-order mark (U+FEFF)';
    if (c < 0x20 || c === 0x7f) {
      const name = c === 0x0a ? 'line feed ' : c === 0x0d ? 'carriage return ' : c === 0x09 ? 'tab ' : '';
      return `${name}U+${c.toString(16).toUpperCase().padStart(4, '0')}`;
    }
    return `'${String.fromCodePoint(c)}'`;
  }

  peek(): number {
    return this.text.charCodeAt(this.pos);
  }

  ws(): void {
    const { text, len } = this;
    let i = this.pos;
    while (i < len) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      i++;
    }
    this.pos = i;
  }

  /** A string, number, true, false or null starting at pos, or NOT_SCALAR (pos unchanged). */
  scalar(): JsonPrimitive | typeof NOT_SCALAR {
    const c = this.text.charCodeAt(this.pos);
    if (c === QUOTE) return this.string();
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
    if (c === 0x74 && this.text.startsWith('true', this.pos)) {
      this.pos += 4;
      return true;
    }
    if (c === 0x66 && this.text.startsWith('false', this.pos)) {
      this.pos += 5;
      return false;
    }
    if (c === 0x6e && this.text.startsWith('null', this.pos)) {
      this.pos += 4;
      return null;
    }
    return NOT_SCALAR;
  }

  /** A JSON string at pos (which holds the opening quote). */
  string(): string {
    const { text, len } = this;
    const start = this.pos;
    let i = start + 1;
    let escaped = false;
    for (;;) {
      if (i >= len) this.fail(`unterminated string (expected '"' to close the string opened at ${this.where(start)})`, i);
      const c = text.charCodeAt(i);
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        escaped = true;
        i = this.escape(i);
      } else if (c < 0x20) {
        this.fail(`control character ${this.found(i)} in string (expected it escaped, e.g. \\n or \\u001f)`, i);
      } else {
        i++;
      }
    }
    this.pos = i + 1;
    // The escapes were validated above, so JSON.parse cannot fail here; it decodes them exactly as JSON does.
    return escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
  }

  /** Validates the escape whose backslash is at `i`; returns the index after it. */
  private escape(i: number): number {
    const e = this.text.charCodeAt(i + 1);
    // " \ / b f n r t
    if (e === 0x22 || e === 0x5c || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
      return i + 2;
    }
    if (e === 0x75) {
      for (let j = i + 2; j < i + 6; j++) {
        if (!isHex(this.text.charCodeAt(j))) this.fail(`bad \\u escape in string (expected 4 hex digits, found ${this.found(j)})`, j);
      }
      return i + 6;
    }
    return this.fail(`bad escape in string (expected one of \\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX, found ${this.found(i + 1)})`, i + 1);
  }

  /** A JSON number at pos. Digits are checked here; the value comes from the host's own conversion. */
  number(): number {
    const { text } = this;
    const start = this.pos;
    let i = start;
    let negative = false;
    if (text.charCodeAt(i) === 0x2d) {
      negative = true;
      i++;
    }
    let c = text.charCodeAt(i);
    if (c === 0x30) {
      i++;
      if (isDigit(text.charCodeAt(i))) this.fail('leading zeros are not allowed in numbers', i);
    } else if (c >= 0x31 && c <= 0x39) {
      i++;
      while (isDigit(text.charCodeAt(i))) i++;
    } else {
      this.fail(`expected a digit after '-', found ${this.found(i)}`, i);
    }
    const intEnd = i;
    c = text.charCodeAt(i);
    if (c === 0x2e) {
      i++;
      if (!isDigit(text.charCodeAt(i))) this.fail(`expected a digit after '.', found ${this.found(i)}`, i);
      while (isDigit(text.charCodeAt(i))) i++;
      c = text.charCodeAt(i);
    }
    if (c === 0x65 || c === 0x45) {
      i++;
      c = text.charCodeAt(i);
      if (c === 0x2b || c === 0x2d) i++;
      if (!isDigit(text.charCodeAt(i))) this.fail(`expected a digit in the exponent, found ${this.found(i)}`, i);
      while (isDigit(text.charCodeAt(i))) i++;
    }
    this.pos = i;
    // Short integers are exact in a double, so summing digits equals the host conversion and skips a slice.
    if (i === intEnd && i - start <= 15) {
      let v = 0;
      for (let j = negative ? start + 1 : start; j < i; j++) v = v * 10 + (text.charCodeAt(j) - 0x30);
      return negative ? -v : v;
    }
    const v = Number(text.slice(start, i));
    if (!Number.isFinite(v)) this.fail('number out of range (not a finite double)', start);
    return v;
  }

  /** An identifier key at pos, or null when pos does not start one. */
  identifier(): string | null {
    const { text, len } = this;
    const start = this.pos;
    if (!isIdentStart(text.charCodeAt(start))) return null;
    let i = start + 1;
    while (i < len && isIdentPart(text.charCodeAt(i))) i++;
    this.pos = i;
    return text.slice(start, i);
  }

  /** `line:col` of an offset, for messages that point back at an earlier place. */
  where(at: number): string {
    const { line, col } = lineColAt(this.text, at);
    return `${line}:${col}`;
  }
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66) || (c >= 0x41 && c <= 0x46);
}
