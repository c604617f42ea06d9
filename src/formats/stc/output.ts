/**
 * Where the STC encoder writes its text: short pieces go byte by byte into a reused Latin-1 buffer,
 * long strings (and any text with a character above U+00FF) are kept whole as parts.
 *
 * Why not `out += piece`: V8 then builds a rope with one node per piece, and on a large value every node
 * stays alive until the end, so each young-generation GC copies the whole rope again; on the recorded
 * corpus that garbage collection took about two thirds of the encoding time. Here the live state is one
 * chunk-sized buffer plus a few hundred parts, and a long string (an issue body) is never copied before
 * the caller reads the result.
 */

import { isIdentPart, isIdentStart, keyText } from './syntax.js';

/** Bytes per chunk: small enough to stay in cache, large enough that flushing is rare. */
const CHUNK = 1 << 16;
/** Strings up to this length are copied into the chunk; longer ones become parts of their own. */
const SHORT = 256;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** One buffer serves every encoding in turn; a nested call (none exists today) would get its own. */
let spare: Buffer | null = null;

export class Output {
  private buf: Buffer;
  private pos = 0;
  private readonly parts: string[] = [];

  constructor() {
    this.buf = spare ?? Buffer.allocUnsafe(CHUNK);
    spare = null;
  }

  /** The text written so far. Call once; the Output is unusable afterwards. */
  finish(): string {
    this.flush();
    this.release();
    const { parts } = this;
    let out = parts.length > 0 ? parts[0]! : '';
    for (let i = 1; i < parts.length; i++) out += parts[i]!;
    return out;
  }

  /** Gives the buffer back for the next encoding (also after an encoding that threw). */
  release(): void {
    spare = this.buf;
  }

  /** One character below U+0100. */
  char(c: number): void {
    if (this.pos === CHUNK) this.flush();
    this.buf[this.pos++] = c;
  }

  /** Text known to be short and free of characters above U+00FF (punctuation, numbers, identifier keys). */
  latin1(s: string): void {
    const n = s.length;
    if (this.pos + n > CHUNK) this.flush();
    const { buf } = this;
    let p = this.pos;
    for (let i = 0; i < n; i++) buf[p++] = s.charCodeAt(i);
    this.pos = p;
  }

  /** Any text, written as is. */
  text(s: string): void {
    const n = s.length;
    if (n <= SHORT) {
      if (this.pos + n > CHUNK) this.flush();
      const { buf } = this;
      let p = this.pos;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        if (c > 0xff) break;
        buf[p++] = c;
      }
      if (i === n) {
        this.pos = p;
        return;
      }
    }
    this.flush();
    this.parts.push(s);
  }

  /**
   * K(k) of the spec: an identifier key as is, any other as `JSON.stringify(k)` (looked up in `quoted`).
   * The identifier test and the copy are one pass, which costs less than a lookup of every key in a map.
   */
  key(k: string, quoted: Map<string, string>): void {
    const n = k.length;
    if (n > 0 && n <= SHORT) {
      if (this.pos + n > CHUNK) this.flush();
      const { buf } = this;
      let p = this.pos;
      let c = k.charCodeAt(0);
      if (isIdentStart(c)) {
        buf[p++] = c;
        let i = 1;
        for (; i < n; i++) {
          c = k.charCodeAt(i);
          if (!isIdentPart(c)) break;
          buf[p++] = c;
        }
        if (i === n) {
          this.pos = p;
          return;
        }
      }
    }
    let text = quoted.get(k);
    if (text === undefined) {
      text = keyText(k);
      quoted.set(k, text);
    }
    this.text(text);
  }

  /** `JSON.stringify(s)`, without calling it for the common string that needs no escape. */
  jsonString(s: string): void {
    const n = s.length;
    if (n <= SHORT) {
      if (this.pos + n + 2 > CHUNK) this.flush();
      const { buf } = this;
      let p = this.pos;
      buf[p++] = QUOTE;
      let i = 0;
      for (; i < n; i++) {
        const c = s.charCodeAt(i);
        // Control characters, '"' and '\' are escaped by JSON.stringify; lone surrogates are above 0xff.
        if (c < 0x20 || c > 0xff || c === QUOTE || c === BACKSLASH) break;
        buf[p++] = c;
      }
      if (i === n) {
        buf[p++] = QUOTE;
        this.pos = p;
        return;
      }
    }
    this.text(JSON.stringify(s));
  }

  /** `String(n)` for a finite number; integers of up to nine digits are written digit by digit. */
  number(n: number): void {
    if (n > -1e9 && n < 1e9 && (n | 0) === n) {
      // -0 passes the test and is written as 0, as String(-0) is.
      if (this.pos + 10 > CHUNK) this.flush();
      const { buf } = this;
      let x = n;
      if (x < 0) {
        buf[this.pos++] = 0x2d;
        x = -x;
      }
      let digits = 1;
      for (let t = x; t >= 10; t = (t / 10) | 0) digits++;
      let p = this.pos + digits;
      this.pos = p;
      do {
        buf[--p] = 0x30 + (x % 10);
        x = (x / 10) | 0;
      } while (x > 0);
      return;
    }
    this.latin1(String(n));
  }

  private flush(): void {
    if (this.pos > 0) {
      this.parts.push(this.buf.toString('latin1', 0, this.pos));
      this.pos = 0;
    }
  }
}
