/**
 * Recursive-descent STC decoder (docs/formats/stc.md, sections 3 and 5).
 *
 * Counted arrays end by their counts: a compact array reads exactly N scalars and a table exactly N rows
 * of K cells, then control returns to the enclosing object or list. Nothing here searches ahead for a
 * closing bracket, so brackets, slashes and commas inside strings can never be mistaken for structure.
 */

import type { JsonObject, JsonPrimitive, JsonValue } from '../../src/json/types.js';
import { NOT_SCALAR, Scanner } from './scanner.js';
import { depthMessage, MAX_DEPTH, setMember } from './syntax.js';

const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;
const SLASH = 0x2f;

/** Decode one STC text. Throws DataError with { line, col } at the first character that does not fit. */
export function decodeStc(text: string): JsonValue {
  const p = new Parser(text);
  p.ws();
  const value = p.value(0);
  p.ws();
  if (p.pos < p.len) p.fail(`unexpected ${p.found()} after the root value (expected end of input)`);
  return value;
}

class Parser extends Scanner {
  /** `level` counts the containers around the value; a container starting here is at level + 1. */
  value(level: number): JsonValue {
    const c = this.peek();
    if (c === OPEN_BRACE) return this.object(level + 1);
    if (c === OPEN_BRACKET) return this.array(level + 1);
    const v = this.scalar();
    if (v === NOT_SCALAR) this.fail(`expected a value (object, array, string, number, true, false or null), found ${this.found()}`);
    return v;
  }

  private object(level: number): JsonObject {
    if (level > MAX_DEPTH) this.fail(depthMessage());
    this.pos++;
    this.ws();
    const obj: JsonObject = {};
    if (this.peek() === CLOSE_BRACE) {
      this.pos++;
      return obj;
    }
    for (;;) {
      const keyAt = this.pos;
      const key = this.key('an object member');
      if (Object.hasOwn(obj, key)) this.fail(`duplicate key ${JSON.stringify(key)} in object`, keyAt);
      this.ws();
      const c = this.peek();
      let v: JsonValue;
      if (c === COLON) {
        this.pos++;
        this.ws();
        v = this.value(level);
      } else if (c === OPEN_BRACKET) {
        const open = this.pos;
        const n = this.count();
        if (n < 0) this.fail(`expected a count such as [2] followed by ':' or '{' after key ${JSON.stringify(key)}`, open);
        v = this.counted(n, level + 1);
      } else {
        return this.fail(`expected ':' or '[' after key ${JSON.stringify(key)}, found ${this.found()}`);
      }
      setMember(obj, key, v);
      this.ws();
      const d = this.peek();
      if (d === COMMA) {
        this.pos++;
        this.ws();
      } else if (d === CLOSE_BRACE) {
        this.pos++;
        return obj;
      } else {
        this.fail(`expected ',' or '}' after the value of key ${JSON.stringify(key)}, found ${this.found()}`);
      }
    }
  }

  private key(what: string): string {
    if (this.peek() === 0x22) return this.string();
    const id = this.identifier();
    if (id === null) this.fail(`expected a key (identifier or string) for ${what}, found ${this.found()}`);
    return id;
  }

  private array(level: number): JsonValue[] {
    if (level > MAX_DEPTH) this.fail(depthMessage());
    const n = this.count();
    if (n >= 0) return this.counted(n, level);
    this.pos++;
    this.ws();
    const items: JsonValue[] = [];
    if (this.peek() === CLOSE_BRACKET) {
      this.pos++;
      return items;
    }
    for (;;) {
      items.push(this.value(level));
      this.ws();
      const c = this.peek();
      if (c === COMMA) {
        this.pos++;
        this.ws();
      } else if (c === CLOSE_BRACKET) {
        this.pos++;
        return items;
      } else {
        this.fail(`expected ',' or ']' after element ${items.length} of the list, found ${this.found()}`);
      }
    }
  }

  /**
   * At '[': when '[' positive ']' is followed (after whitespace) by ':' or '{', consumes it and returns
   * the count; otherwise returns -1 and leaves pos alone, because the '[' opens a list (spec 3.1.2).
   */
  private count(): number {
    const { text } = this;
    const open = this.pos;
    let i = open + 1;
    while (i < this.len && text.charCodeAt(i) >= 0x30 && text.charCodeAt(i) <= 0x39) i++;
    if (i === open + 1 || text.charCodeAt(i) !== CLOSE_BRACKET) return -1;
    this.pos = i + 1;
    this.ws();
    const next = this.peek();
    if (next !== COLON && next !== OPEN_BRACE) {
      this.pos = open;
      return -1;
    }
    const digits = text.slice(open + 1, i);
    if (digits.charCodeAt(0) === 0x30) {
      this.fail(
        digits.length === 1 ? 'count must be at least 1 (an empty array is written [])' : 'count must not have leading zeros',
        open + 1,
      );
    }
    const n = Number(digits);
    if (n > Number.MAX_SAFE_INTEGER) this.fail(`count ${digits} is too large`, open + 1);
    return n;
  }

  /** After a count: pos is at ':' (scalar array) or '{' (table). */
  private counted(n: number, level: number): JsonValue[] {
    if (level > MAX_DEPTH) this.fail(depthMessage());
    if (this.peek() === OPEN_BRACE) return this.table(n, level);
    this.pos++;
    this.ws();
    const items: JsonPrimitive[] = [];
    for (let i = 0; i < n; i++) {
      if (i > 0) {
        this.ws();
        if (this.peek() !== COMMA) this.fail(`expected ',' before element ${i + 1} of ${n} of the scalar array, found ${this.found()}`);
        this.pos++;
        this.ws();
      }
      const v = this.scalar();
      if (v === NOT_SCALAR)
        this.fail(
          `expected a scalar (string, number, true, false or null) as element ${i + 1} of ${n} of the scalar array, found ${this.found()}`,
        );
      items.push(v);
    }
    return items;
  }

  private table(n: number, level: number): JsonObject[] {
    const fields = this.fields();
    const k = fields.length;
    this.ws();
    if (this.peek() !== COLON) this.fail(`expected ':' after the table fields, found ${this.found()}`);
    this.pos++;
    this.ws();
    if (level + 1 > MAX_DEPTH) this.fail(depthMessage());
    const rows: JsonObject[] = [];
    for (let r = 0; r < n; r++) {
      if (r > 0) {
        this.ws();
        if (this.peek() !== SLASH) {
          const hint = this.peek() === COMMA ? ` (row ${r} has more than ${k} cells?)` : '';
          this.fail(`expected '/' before row ${r + 1} of ${n} of the table, found ${this.found()}${hint}`);
        }
        this.pos++;
        this.ws();
      }
      const row: JsonObject = {};
      for (let j = 0; j < k; j++) {
        const field = fields[j]!;
        if (j > 0) {
          this.ws();
          if (this.peek() !== COMMA) {
            this.fail(
              `expected ',' before cell ${j + 1} of ${k} (${JSON.stringify(field)}) in row ${r + 1} of the table, found ${this.found()}`,
            );
          }
          this.pos++;
          this.ws();
        }
        const v = this.scalar();
        if (v === NOT_SCALAR) {
          this.fail(
            `expected a scalar as cell ${j + 1} of ${k} (${JSON.stringify(field)}) in row ${r + 1} of the table, found ${this.found()}`,
          );
        }
        setMember(row, field, v);
      }
      rows.push(row);
    }
    return rows;
  }

  /** `{k1,k2}` after a count: at least one key, all distinct. */
  private fields(): string[] {
    this.pos++;
    this.ws();
    const fields: string[] = [];
    const seen = new Set<string>();
    for (;;) {
      const at = this.pos;
      const key = this.key('a table field');
      if (seen.has(key)) this.fail(`duplicate key ${JSON.stringify(key)} in the table fields`, at);
      seen.add(key);
      fields.push(key);
      this.ws();
      const c = this.peek();
      if (c === COMMA) {
        this.pos++;
        this.ws();
      } else if (c === CLOSE_BRACE) {
        this.pos++;
        return fields;
      } else {
        this.fail(`expected ',' or '}' in the table fields, found ${this.found()}`);
      }
    }
  }
}
