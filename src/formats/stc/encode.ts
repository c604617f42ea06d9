/**
 * Canonical STC encoder (docs/formats/stc.md, section 4). One output per input, byte for byte.
 *
 * Output goes through `Output` (output.ts), which keeps the live state small while encoding; the
 * reasons and measurements are there.
 */

import { DataError } from '../../errors.js';
import type { JsonValue } from '../../json/types.js';
import { Output } from './output.js';
import { depthMessage, isScalar, MAX_DEPTH, ROW_SEPARATOR } from './syntax.js';

const COMMA = 0x2c;
const COLON = 0x3a;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** Encode a JSON value as canonical STC. Throws DataError on non-JSON input or nesting beyond MAX_DEPTH. */
export function encodeStc(value: JsonValue): string {
  const encoder = new Encoder();
  try {
    encoder.value(value, 0);
    return encoder.out.finish();
  } finally {
    encoder.out.release();
  }
}

/** The keys shared by every object of `items` when the array qualifies as a table, else null. */
export function tableFields(items: readonly unknown[]): string[] | null {
  const n = items.length;
  if (n < 2) return null;
  const first = items[0];
  if (!isObject(first)) return null;
  const fields = Object.keys(first);
  const k = fields.length;
  if (k === 0) return null;
  for (let i = 0; i < n; i++) {
    const item = items[i];
    if (!isObject(item)) return null;
    const keys = i === 0 ? fields : Object.keys(item);
    if (keys.length !== k) return null;
    for (let j = 0; j < k; j++) {
      const key = fields[j]!;
      if (keys[j] !== key || !isScalar(item[key])) return null;
    }
  }
  return fields;
}

function allScalars(items: readonly unknown[]): boolean {
  for (let i = 0; i < items.length; i++) {
    if (!isScalar(items[i])) return false;
  }
  return true;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

class Encoder {
  readonly out = new Output();
  /** The quoted form of each non-identifier key met so far: keys repeat across the objects of a response. */
  private readonly quotedKeys = new Map<string, string>();

  /** `level` counts the containers around `v`; a container inside them is at level + 1. */
  value(v: unknown, level: number): void {
    if (isScalar(v)) {
      this.scalar(v);
    } else if (Array.isArray(v)) {
      this.array(v, level + 1, false);
    } else if (isObject(v)) {
      this.object(v, level + 1);
    } else {
      throw new DataError(`cannot encode ${typeof v} as STC: not a JSON value`);
    }
  }

  private scalar(v: string | number | boolean | null): void {
    if (typeof v === 'string') {
      this.out.jsonString(v);
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) throw new DataError(`cannot encode ${v} as STC: not a JSON number`);
      this.out.number(v);
    } else {
      this.out.latin1(v === null ? 'null' : v ? 'true' : 'false');
    }
  }

  private key(k: string): void {
    this.out.key(k, this.quotedKeys);
  }

  /** `member`: the array is a member's value, so a non-counted form needs ':' after the key. */
  private array(items: unknown[], level: number, member: boolean): void {
    if (level > MAX_DEPTH) throw new DataError(depthMessage());
    const { out } = this;
    const n = items.length;
    if (n === 0) {
      out.latin1(member ? ':[]' : '[]');
      return;
    }
    if (allScalars(items)) {
      out.latin1(`[${n}]:`);
      for (let i = 0; i < n; i++) {
        if (i > 0) out.char(COMMA);
        this.scalar(items[i] as string | number | boolean | null);
      }
      return;
    }
    const fields = tableFields(items);
    if (fields !== null) {
      this.table(items as Record<string, unknown>[], fields, level);
      return;
    }
    out.latin1(member ? ':[' : '[');
    for (let i = 0; i < n; i++) {
      if (i > 0) out.char(COMMA);
      this.value(items[i], level);
    }
    out.char(CLOSE_BRACKET);
  }

  private table(rows: Record<string, unknown>[], fields: string[], level: number): void {
    // The row objects sit one level below the array, exactly as in the JSON value.
    if (level + 1 > MAX_DEPTH) throw new DataError(depthMessage());
    const { out } = this;
    out.latin1(`[${rows.length}]{`);
    for (let j = 0; j < fields.length; j++) {
      if (j > 0) out.char(COMMA);
      this.key(fields[j]!);
    }
    out.latin1('}:');
    for (let i = 0; i < rows.length; i++) {
      if (i > 0) out.latin1(ROW_SEPARATOR);
      const row = rows[i]!;
      for (let j = 0; j < fields.length; j++) {
        if (j > 0) out.char(COMMA);
        this.scalar(row[fields[j]!] as string | number | boolean | null);
      }
    }
  }

  private object(o: Record<string, unknown>, level: number): void {
    if (level > MAX_DEPTH) throw new DataError(depthMessage());
    const { out } = this;
    const keys = Object.keys(o);
    if (keys.length === 0) {
      out.latin1('{}');
      return;
    }
    out.char(OPEN_BRACE);
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const v = o[k];
      if (i > 0) out.char(COMMA);
      this.key(k);
      if (Array.isArray(v)) {
        this.array(v, level + 1, true);
      } else {
        out.char(COLON);
        this.value(v, level);
      }
    }
    out.char(CLOSE_BRACE);
  }
}
