import { decodeGeneric, encodeGeneric } from '@blackwell-systems/gcf';
import { DataError } from '../errors.js';
import type { JsonValue } from '../json/types.js';
import { FORMAT_INFO } from './info.js';
import type { Format } from './types.js';

/**
 * GCF generic profile through @blackwell-systems/gcf.
 * Known upstream losses (2.5.2), recorded in docs/formats/gcf.md and test/fixtures/gcf-known-losses.json:
 * key order in arrays of objects whose key sets differ, and keys containing GCF syntax such as `>` or `[`.
 * Callers that claim losslessness must verify (see verify.ts); this module does not hide the loss.
 */
export const gcf: Format = {
  ...FORMAT_INFO.gcf,
  encode: (value: JsonValue) => {
    try {
      return encodeGeneric(value);
    } catch (err) {
      throw new DataError(`GCF cannot encode this value: ${(err as Error).message}`, undefined, err);
    }
  },
  decode: (text: string) => {
    try {
      return toPlain(decodeGeneric(text));
    } catch (err) {
      throw new DataError(`invalid GCF: ${(err as Error).message}`, undefined, err);
    }
  },
};

/** decodeGeneric returns Map objects for JSON objects (its docs say plain objects). */
function toPlain(value: unknown): JsonValue {
  if (value instanceof Map) {
    const out: Record<string, JsonValue> = {};
    for (const [k, v] of value) {
      // defineProperty, so a "__proto__" key stays an own property instead of setting the prototype.
      Object.defineProperty(out, String(k), { value: toPlain(v), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  if (Array.isArray(value)) return value.map(toPlain);
  if (value !== null && typeof value === 'object') {
    const out: Record<string, JsonValue> = {};
    for (const k of Object.keys(value)) {
      Object.defineProperty(out, k, {
        value: toPlain((value as Record<string, unknown>)[k]),
        enumerable: true,
        writable: true,
        configurable: true,
      });
    }
    return out;
  }
  return value as JsonValue;
}
