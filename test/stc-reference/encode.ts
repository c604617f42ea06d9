/**
 * Canonical STC encoder (docs/formats/stc.md, section 4). One output per input, byte for byte.
 *
 * Output goes into one string with `+=`: V8 builds a rope and flattens it once at the end, which
 * keeps encoding linear in the output size (no per-level joins of intermediate strings).
 */

import { DataError } from '../../src/errors.js';
import type { JsonValue } from '../../src/json/types.js';
import { depthMessage, isScalar, keyText, MAX_DEPTH, ROW_SEPARATOR } from './syntax.js';

/** Encode a JSON value as canonical STC. Throws DataError on non-JSON input or nesting beyond MAX_DEPTH. */
export function encodeStc(value: JsonValue): string {
  const encoder = new Encoder();
  encoder.value(value, 0);
  return encoder.out;
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
  out = '';
  // Keys repeat across the objects of a response; deciding identifier-or-quoted once per key pays off.
  private readonly keys = new Map<string, string>();

  /** `level` counts the containers around `v`; a container inside them is at level + 1. */
  value(v: unknown, level: number): void {
    if (isScalar(v)) {
      this.scalar(v);
    } else if (Array.isArray(v)) {
      this.array(v, level + 1, '');
    } else if (isObject(v)) {
      this.object(v, level + 1);
    } else {
      throw new DataError(`cannot encode ${typeof v} as STC: not a JSON value`);
    }
  }

  private scalar(v: string | number | boolean | null): void {
    if (typeof v === 'number' && !Number.isFinite(v)) {
      throw new DataError(`cannot encode ${v} as STC: not a JSON number`);
    }
    this.out += JSON.stringify(v);
  }

  private key(k: string): string {
    let text = this.keys.get(k);
    if (text === undefined) {
      text = keyText(k);
      this.keys.set(k, text);
    }
    return text;
  }

  /** `sep` is what goes before a non-counted array: ':' after a key, nothing at the root or in a list. */
  private array(items: unknown[], level: number, sep: string): void {
    if (level > MAX_DEPTH) throw new DataError(depthMessage());
    const n = items.length;
    if (n === 0) {
      this.out += sep + '[]';
      return;
    }
    if (allScalars(items)) {
      this.out += `[${n}]:`;
      for (let i = 0; i < n; i++) {
        if (i > 0) this.out += ',';
        this.scalar(items[i] as string | number | boolean | null);
      }
      return;
    }
    const fields = tableFields(items);
    if (fields !== null) {
      this.table(items as Record<string, unknown>[], fields, level);
      return;
    }
    this.out += sep + '[';
    for (let i = 0; i < n; i++) {
      if (i > 0) this.out += ',';
      this.value(items[i], level);
    }
    this.out += ']';
  }

  private table(rows: Record<string, unknown>[], fields: string[], level: number): void {
    // The row objects sit one level below the array, exactly as in the JSON value.
    if (level + 1 > MAX_DEPTH) throw new DataError(depthMessage());
    let header = `[${rows.length}]{`;
    for (let j = 0; j < fields.length; j++) header += (j > 0 ? ',' : '') + this.key(fields[j]!);
    this.out += header + '}:';
    for (let i = 0; i < rows.length; i++) {
      if (i > 0) this.out += ROW_SEPARATOR;
      const row = rows[i]!;
      for (let j = 0; j < fields.length; j++) {
        if (j > 0) this.out += ',';
        this.scalar(row[fields[j]!] as string | number | boolean | null);
      }
    }
  }

  private object(o: Record<string, unknown>, level: number): void {
    if (level > MAX_DEPTH) throw new DataError(depthMessage());
    const keys = Object.keys(o);
    if (keys.length === 0) {
      this.out += '{}';
      return;
    }
    this.out += '{';
    for (let i = 0; i < keys.length; i++) {
      const k = keys[i]!;
      const v = o[k];
      this.out += (i > 0 ? ',' : '') + this.key(k);
      if (Array.isArray(v)) {
        this.array(v, level + 1, ':');
      } else {
        this.out += ':';
        this.value(v, level);
      }
    }
    this.out += '}';
  }
}
