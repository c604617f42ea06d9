import { DataError, lineColAt, quoteCharAt, type Location } from '../errors.js';
import { depthMessage, MAX_DEPTH } from './depth.js';
import { numberLoss } from './numbers.js';
import type { JsonObject, JsonValue } from './types.js';

/**
 * devboy's JSON reader. It accepts exactly RFC 8259 JSON, and it refuses, at their line:col, the
 * texts whose meaning a JavaScript value would change rather than keep:
 * - a number a double cannot hold (`1e400`, `1e-400`, `12345678901234567890`; see numbers.ts);
 * - a duplicate key (an object keeps one value per key);
 * - an integer-like key after other keys, or integer-like keys out of ascending order (JavaScript
 *   objects list integer keys first, ascending, so the key order could not be kept);
 * - nesting deeper than MAX_DEPTH.
 * Lone surrogates (`"\ud800"`) are kept: JSON and STC write them back as escapes, and the formats
 * that cannot hold them refuse when encoding. The reader is iterative: no input can overflow the stack.
 */
export function parseJson(text: string, file?: string, options: ParseOptions = {}): JsonValue {
  const r = new Reader(text, true, MAX_DEPTH + (options.wrapperLevels ?? 0));
  try {
    return r.document();
  } catch (e) {
    if (e instanceof ReadFailure) throw e.toDataError((at) => ({ ...(file !== undefined ? { file } : {}), ...lineColAt(text, at) }));
    throw e;
  }
}

export interface ParseOptions {
  /**
   * Containers that wrap the value the limit is about, and do not count towards it: a recorded
   * exchange's body sits two levels down (`{"response": {"body": ...}}`), and a body that live
   * reading accepted must read back from its recording.
   */
  wrapperLevels?: number;
}

/** Parse newline-delimited JSON: one value per non-blank line, each read as strictly as parseJson. Errors name the line. */
export function parseNdjson(text: string, file?: string): JsonValue[] {
  const values: JsonValue[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r$/, '');
    if (raw.trim() === '') continue;
    try {
      values.push(new Reader(raw, true).document());
    } catch (e) {
      if (!(e instanceof ReadFailure)) throw e;
      const where = (at: number): Location => ({ ...(file !== undefined ? { file } : {}), line: i + 1, col: at + 1 });
      throw e.toDataError(where, 'invalid NDJSON line');
    }
  }
  return values;
}

export interface JsonSyntaxError {
  offset: number;
  message: string;
}

/** Locate the first syntax error of a text JSON.parse rejected (grammar only: no limits, no exactness rules). */
export function findJsonError(text: string): JsonSyntaxError {
  try {
    new Reader(text, false).document();
  } catch (e) {
    if (e instanceof ReadFailure) return { offset: e.offset, message: e.describe((at) => `${at}`) };
    throw e;
  }
  return { offset: 0, message: 'not valid JSON' };
}

/** Why reading stopped, at an offset of the text; `describe` can name other offsets (e.g. the first of two keys). */
class ReadFailure {
  constructor(
    readonly offset: number,
    readonly describe: (where: (offset: number) => string) => string,
    /** Grammar errors say "invalid JSON"; refusals of valid JSON say what they refuse. */
    readonly syntax: boolean,
  ) {}

  toDataError(where: (offset: number) => Location, prefix = 'invalid JSON'): DataError {
    const message = this.describe((at) => {
      const { line, col } = where(at);
      return `${line}:${col}`;
    });
    return new DataError(this.syntax ? `${prefix}: ${message}` : message, where(this.offset));
  }
}

interface Frame {
  container: JsonObject | JsonValue[];
  isArray: boolean;
  /** Offset of the opening bracket. */
  start: number;
  /** The member whose value is being read (objects only). */
  key: string;
  /** Largest integer-like key so far, -1 when none (objects only). */
  lastIndex: number;
  /** First key that is not integer-like (objects only). */
  firstName: string | undefined;
}

const QUOTE = 0x22;
/** A run of plain string characters: anything but a quote, a backslash, or a control character (an error). */
// eslint-disable-next-line no-control-regex
const PLAIN = /[^"\\\u0000-\u001f]*/y;
const BACKSLASH = 0x5c;

class Reader {
  private i = 0;
  private readonly n: number;

  constructor(
    private readonly text: string,
    /** Apply the exactness rules and the depth limit; false checks the grammar only. */
    private readonly strict: boolean,
    private readonly maxDepth = MAX_DEPTH,
  ) {
    this.n = text.length;
  }

  /** One JSON value and nothing after it but whitespace. */
  document(): JsonValue {
    const value = this.value();
    this.ws();
    if (this.i < this.n) this.syntax(`unexpected ${this.found()} after the JSON value`);
    return value;
  }

  /** A value, with its containers kept on an explicit stack instead of the call stack. */
  private value(): JsonValue {
    const { text } = this;
    const stack: Frame[] = [];
    for (;;) {
      this.ws();
      let value: JsonValue;
      const c = text.charCodeAt(this.i);
      if (c === 0x7b || c === 0x5b) {
        const isArray = c === 0x5b;
        if (this.strict && stack.length >= this.maxDepth) this.refuse(this.i, () => depthMessage());
        const start = this.i++;
        this.ws();
        if (text.charCodeAt(this.i) === (isArray ? 0x5d : 0x7d)) {
          this.i++;
          value = isArray ? [] : {};
        } else {
          const frame: Frame = { container: isArray ? [] : {}, isArray, start, key: '', lastIndex: -1, firstName: undefined };
          stack.push(frame);
          if (!isArray) this.member(frame);
          continue;
        }
      } else value = this.scalar(c);

      // A value is complete: hand it to its container, closing every container that ends here.
      for (;;) {
        const top = stack[stack.length - 1];
        if (top === undefined) return value;
        if (top.isArray) (top.container as JsonValue[]).push(value);
        else setMember(top.container as JsonObject, top.key, value);
        this.ws();
        const d = text.charCodeAt(this.i);
        if (d === 0x2c) {
          this.i++;
          if (!top.isArray) this.member(top);
          break;
        }
        if (d === (top.isArray ? 0x5d : 0x7d)) {
          this.i++;
          stack.pop();
          value = top.container;
          continue;
        }
        return this.syntax(`unexpected ${this.found()} (expected ',' or '${top.isArray ? ']' : '}'}')`);
      }
    }
  }

  /** The string, literal or number that starts with `c`. */
  private scalar(c: number): JsonValue {
    if (c === QUOTE) return this.string();
    if (c === 0x74) return this.literal('true', true);
    if (c === 0x66) return this.literal('false', false);
    if (c === 0x6e) return this.literal('null', null);
    if (c === 0x2d || (c >= 0x30 && c <= 0x39)) return this.number();
    return this.syntax(`unexpected ${this.found()} (expected a value)`);
  }

  /** A member's key and ':'; checks that the key is new and keeps its place in the key order. */
  private member(frame: Frame): void {
    this.ws();
    if (this.text.charCodeAt(this.i) !== QUOTE) this.syntax(`unexpected ${this.found()} (expected a property name in double quotes)`);
    const at = this.i;
    const key = this.string();
    if (this.strict) this.checkKey(frame, key, at);
    this.ws();
    if (this.text.charCodeAt(this.i) !== 0x3a) this.syntax(`unexpected ${this.found()} (expected ':')`);
    this.i++;
    frame.key = key;
  }

  private checkKey(frame: Frame, key: string, at: number): void {
    const obj = frame.container as JsonObject;
    if (Object.prototype.hasOwnProperty.call(obj, key)) {
      const first = firstKeyOffset(this.text, frame.start, key);
      this.refuse(at, (where) => `duplicate key ${JSON.stringify(key)} (first at ${where(first)}); an object holds one value per key`);
    }
    const c = key.charCodeAt(0);
    if (c >= 0x30 && c <= 0x39 && isArrayIndex(key)) {
      const index = Number(key);
      const before = frame.firstName ?? (index < frame.lastIndex ? String(frame.lastIndex) : undefined);
      if (before !== undefined) {
        this.refuse(
          at,
          () =>
            `key ${JSON.stringify(key)} would move before ${JSON.stringify(before)}: JavaScript objects list integer keys first, in ascending order, so this key order cannot be kept`,
        );
      }
      frame.lastIndex = index;
    } else if (frame.firstName === undefined) {
      frame.firstName = key;
    }
  }

  /** A JSON string at the opening quote. */
  string(): string {
    const { text } = this;
    const start = this.i;
    let i = start + 1;
    let escaped = false;
    for (;;) {
      // The regex engine skips plain characters faster than a loop over each (test() allocates no match).
      PLAIN.lastIndex = i;
      PLAIN.test(text);
      i = PLAIN.lastIndex;
      if (i >= this.n) {
        this.i = i;
        this.syntax('unterminated string');
      }
      const c = text.charCodeAt(i);
      if (c === QUOTE) break;
      if (c === BACKSLASH) {
        escaped = true;
        const e = text.charCodeAt(i + 1);
        if (e === 0x75) {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            this.i = i + 2;
            this.syntax('bad \\u escape');
          }
          i += 6;
        } else if (e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74) {
          i += 2;
        } else {
          this.i = i + 1;
          this.syntax(`bad escape ${i + 1 >= this.n ? 'at end of input' : `'\\${quoteCharAt(text, i + 1).slice(1, -1)}'`}`);
        }
      } else {
        this.i = i;
        this.syntax(`control character ${quoteCharAt(text, i).slice(1, -1)} in string (must be escaped)`);
      }
    }
    this.i = i + 1;
    // The escapes are valid, so JSON.parse decodes them exactly as JSON defines (lone surrogates included).
    return escaped ? (JSON.parse(text.slice(start, i + 1)) as string) : text.slice(start + 1, i);
  }

  /** The longest JSON number at the current position, as JSON.parse's grammar reads it. */
  private number(): number {
    const { text } = this;
    const start = this.i;
    let i = start;
    if (text.charCodeAt(i) === 0x2d) i++;
    const c = text.charCodeAt(i);
    if (c === 0x30) i++;
    else if (c >= 0x31 && c <= 0x39) {
      i++;
      while (isDigit(text.charCodeAt(i))) i++;
    } else {
      return this.syntax(`unexpected ${this.found()} (expected a number)`);
    }
    const intEnd = i;
    i = afterExponent(text, afterFraction(text, i));
    this.i = i;
    // Integers of up to 15 digits are exact in a double: summing digits is the same value without a slice.
    if (i === intEnd && i - start <= 15) {
      const negative = text.charCodeAt(start) === 0x2d;
      let v = 0;
      for (let j = negative ? start + 1 : start; j < i; j++) v = v * 10 + (text.charCodeAt(j) - 0x30);
      return negative ? -v : v;
    }
    const literal = text.slice(start, i);
    const value = Number(literal);
    if (this.strict) {
      const loss = numberLoss(literal, value);
      if (loss !== null) this.refuse(start, () => `number ${literal} ${loss}`);
    }
    return value;
  }

  private literal<T extends JsonValue>(word: string, value: T): T {
    for (let k = 0; k < word.length; k++) {
      if (this.text.charCodeAt(this.i) !== word.charCodeAt(k)) this.syntax(`unexpected ${this.found()} (expected ${word})`);
      this.i++;
    }
    return value;
  }

  /** Skip whitespace; public so a caller can walk members without reading their values twice. */
  ws(): void {
    const { text, n } = this;
    let i = this.i;
    while (i < n) {
      const c = text.charCodeAt(i);
      if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
      i++;
    }
    this.i = i;
  }

  at(offset: number): void {
    this.i = offset;
  }

  get offset(): number {
    return this.i;
  }

  /** Read and drop one value (grammar only). */
  skipValue(): void {
    this.value();
  }

  private found(): string {
    return quoteCharAt(this.text, this.i);
  }

  private syntax(message: string): never {
    throw new ReadFailure(this.i, () => message, true);
  }

  private refuse(offset: number, describe: (where: (offset: number) => string) => string): never {
    throw new ReadFailure(offset, describe, false);
  }
}

/**
 * Where `key` first appears among the members of the object opening at `start`. Only called for a
 * duplicate, so re-reading the object (grammar only) costs nothing on valid input.
 */
function firstKeyOffset(text: string, start: number, key: string): number {
  const r = new Reader(text, false);
  r.at(start + 1);
  for (;;) {
    r.ws();
    const at = r.offset;
    if (r.string() === key) return at;
    r.ws();
    r.at(r.offset + 1); // ':'
    r.skipValue();
    r.ws();
    r.at(r.offset + 1); // ','
  }
}

/** Keys JavaScript orders numerically: canonical integers from 0 to 2^32 - 2. */
function isArrayIndex(key: string): boolean {
  if (key.length > 10 || !/^(?:0|[1-9][0-9]*)$/.test(key)) return false;
  return Number(key) <= 4294967294;
}

/** Sets a member so that `__proto__` becomes an own property, as JSON.parse does, instead of replacing the prototype. */
function setMember(target: JsonObject, key: string, value: JsonValue): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  else target[key] = value;
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

/** Past a number's fraction at `i` (a dot and at least one digit), or `i` when there is none. */
function afterFraction(text: string, i: number): number {
  if (text.charCodeAt(i) !== 0x2e || !isDigit(text.charCodeAt(i + 1))) return i;
  let end = i + 2;
  while (isDigit(text.charCodeAt(end))) end++;
  return end;
}

/** Past a number's exponent at `i` (e or E, a sign, at least one digit), or `i` when there is none. */
function afterExponent(text: string, i: number): number {
  const e = text.charCodeAt(i);
  if (e !== 0x65 && e !== 0x45) return i;
  let j = i + 1;
  const s = text.charCodeAt(j);
  if (s === 0x2b || s === 0x2d) j++;
  if (!isDigit(text.charCodeAt(j))) return i;
  let end = j + 1;
  while (isDigit(text.charCodeAt(end))) end++;
  return end;
}
