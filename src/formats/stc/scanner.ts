/**
 * Character-level scanning for the STC decoder: whitespace, JSON scalars, identifiers, and errors that
 * carry a line and column. No regular expressions (no input can make one backtrack): charCodeAt, plus
 * indexOf and JSON.parse on a single string token (see `string`), so that a scalar's extent is decided
 * by JSON's grammar alone.
 */

import { DataError, lineColAt } from '../../errors.js';
import type { JsonPrimitive } from '../../json/types.js';
import { isIdentPart, isIdentStart } from './syntax.js';

/** Returned by `scalar()` when the next character cannot start a scalar; the caller says what it wanted. */
export const NOT_SCALAR: unique symbol = Symbol('not a scalar');

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
/** Up to this many characters (quotes included) a JS loop checks a string faster than a JSON.parse call. */
const SHORT_STRING = 64;
/** Slots of the identifier cache (a power of two); the corpus's responses use a few hundred distinct keys. */
const KEY_CACHE_SIZE = 1024;
/** Texts shorter than this get no cache: setting it up would cost more than it saves. */
const SMALL_TEXT = 4096;

export class Scanner {
  pos = 0;
  readonly len: number;
  private readonly keyCache: (string | undefined)[] | null;

  constructor(readonly text: string) {
    this.len = text.length;
    this.keyCache = this.len < SMALL_TEXT ? null : new Array<string | undefined>(KEY_CACHE_SIZE).fill(undefined);
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
    const { text, pos } = this;
    const c = text.charCodeAt(pos);
    if (c === QUOTE) return this.string();
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
    // Compared code by code: a startsWith call per literal costs more than the comparisons.
    if (c === 0x74 && text.charCodeAt(pos + 1) === 0x72 && text.charCodeAt(pos + 2) === 0x75 && text.charCodeAt(pos + 3) === 0x65) {
      this.pos = pos + 4;
      return true;
    }
    if (
      c === 0x66 &&
      text.charCodeAt(pos + 1) === 0x61 &&
      text.charCodeAt(pos + 2) === 0x6c &&
      text.charCodeAt(pos + 3) === 0x73 &&
      text.charCodeAt(pos + 4) === 0x65
    ) {
      this.pos = pos + 5;
      return false;
    }
    if (c === 0x6e && text.charCodeAt(pos + 1) === 0x75 && text.charCodeAt(pos + 2) === 0x6c && text.charCodeAt(pos + 3) === 0x6c) {
      this.pos = pos + 4;
      return null;
    }
    return NOT_SCALAR;
  }

  /**
   * A JSON string at pos (which holds the opening quote).
   *
   * The closing quote is found with indexOf, which V8 runs natively, and the content is then checked by
   * JSON.parse (long or escaped strings) or one pass over a short span. Any failure, wherever it is, goes
   * to `checkedString`, which scans from the opening quote character by character and throws the first
   * error it meets: the fast path decides nothing about errors, so messages and positions cannot change.
   * Why the two paths agree on valid strings: in a valid string every backslash run pairs up, so the
   * closing quote is the first quote after an even run of backslashes, which is the quote found here; and
   * JSON.parse accepts exactly JSON's string grammar, which is STC's.
   */
  string(): string {
    const { text } = this;
    const start = this.pos;
    let end = text.indexOf('"', start + 1);
    while (end > 0 && text.charCodeAt(end - 1) === BACKSLASH) {
      let run = end - 1;
      while (text.charCodeAt(run - 1) === BACKSLASH) run--;
      if ((end - run) % 2 === 0) break;
      end = text.indexOf('"', end + 1);
    }
    if (end < 0) return this.checkedString(start);
    if (end - start <= SHORT_STRING) {
      let i = start + 1;
      for (; i < end; i++) {
        const c = text.charCodeAt(i);
        if (c < 0x20 || c === BACKSLASH) break;
      }
      if (i === end) {
        this.pos = end + 1;
        return text.slice(start + 1, end);
      }
    }
    let value: string;
    try {
      value = JSON.parse(text.slice(start, end + 1)) as string;
    } catch {
      return this.checkedString(start);
    }
    this.pos = end + 1;
    return value;
  }

  /** The reference string scanner: validates every character and throws at the first one that does not fit. */
  private checkedString(start: number): string {
    const { text, len } = this;
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
    const negative = text.charCodeAt(start) === 0x2d;
    const intEnd = this.integerDigits(negative ? start + 1 : start);
    const i = this.exponentDigits(this.fractionDigits(intEnd));
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

  /** Past a number's integer digits at `i`: a lone 0, or a digit 1-9 and any digits. */
  private integerDigits(i: number): number {
    const { text } = this;
    const c = text.charCodeAt(i);
    if (c === 0x30) {
      if (isDigit(text.charCodeAt(i + 1))) this.fail('leading zeros are not allowed in numbers', i + 1);
      return i + 1;
    }
    if (!(c >= 0x31 && c <= 0x39)) this.fail(`expected a digit after '-', found ${this.found(i)}`, i);
    let end = i + 1;
    while (isDigit(text.charCodeAt(end))) end++;
    return end;
  }

  /** Past a number's fraction at `i` (a dot and digits), or `i` when there is none. */
  private fractionDigits(i: number): number {
    const { text } = this;
    if (text.charCodeAt(i) !== 0x2e) return i;
    let end = i + 1;
    if (!isDigit(text.charCodeAt(end))) this.fail(`expected a digit after '.', found ${this.found(end)}`, end);
    while (isDigit(text.charCodeAt(end))) end++;
    return end;
  }

  /** Past a number's exponent at `i` (e or E, a sign, digits), or `i` when there is none. */
  private exponentDigits(i: number): number {
    const { text } = this;
    const c = text.charCodeAt(i);
    if (c !== 0x65 && c !== 0x45) return i;
    let end = i + 1;
    const sign = text.charCodeAt(end);
    if (sign === 0x2b || sign === 0x2d) end++;
    if (!isDigit(text.charCodeAt(end))) this.fail(`expected a digit in the exponent, found ${this.found(end)}`, end);
    while (isDigit(text.charCodeAt(end))) end++;
    return end;
  }

  /**
   * An identifier key at pos, or null when pos does not start one.
   *
   * Keys repeat in every object of a response. A slice would allocate a new string per occurrence, which
   * V8 must then hash and look up in its string table to use as a property name; the cache hands back
   * the string made for the first occurrence, found by a hash computed during the scan.
   */
  identifier(): string | null {
    const { text, len } = this;
    const start = this.pos;
    let c = text.charCodeAt(start);
    if (!isIdentStart(c)) return null;
    let hash = c;
    let i = start + 1;
    while (i < len) {
      c = text.charCodeAt(i);
      if (!isIdentPart(c)) break;
      hash = (Math.imul(hash, 31) + c) | 0;
      i++;
    }
    this.pos = i;
    const cache = this.keyCache;
    if (cache === null) return text.slice(start, i);
    const slot = hash & (KEY_CACHE_SIZE - 1);
    const cached = cache[slot];
    if (cached !== undefined && cached.length === i - start && text.startsWith(cached, start)) return cached;
    const key = text.slice(start, i);
    cache[slot] = key;
    return key;
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
