import { decodeGeneric, encodeGeneric } from '@blackwell-systems/gcf';
import { DataError, lineColAt } from '../errors.js';
import { depthMessage, overIndented } from '../json/depth.js';
import { assertEncodableDepth, loneSurrogateError } from '../json/encode-guard.js';
import { findNumberLoss } from '../json/numbers.js';
import { isWellFormed } from '../json/surrogates.js';
import type { JsonValue } from '../json/types.js';
import { FORMAT_INFO } from './info.js';
import { assertBoundedDecode, decodeRefusingDroppedColumns } from './gcf-guard.js';
import type { Format } from './types.js';

/** GCF nests by indentation, two spaces a level (spec section 4.1). */
const GCF_INDENT = 2;

/**
 * GCF generic profile through @blackwell-systems/gcf.
 * Known upstream losses (2.5.2), recorded in docs/formats/gcf.md and test/fixtures/gcf-known-losses.json:
 * key order in arrays of objects whose key sets differ, and keys containing GCF syntax such as `>` or `[`.
 * Callers that claim losslessness must verify (see verify.ts); this module does not hide the loss.
 *
 * What 2.5.2 does not check, checked here (docs/formats/exactness.md): it enforces no nesting limit and
 * overflows the stack from about 1,250 levels, so nesting beyond MAX_DEPTH is refused both ways; it
 * writes a lone surrogate raw, which the spec forbids and UTF-8 turns into U+FFFD, so that is refused;
 * and its decoder reads `1e400` as Infinity and long integers approximately, so those are refused at
 * their line:col. Its decoder also drops columns whose path runs through `__proto__`, `constructor` or
 * `prototype`, and decodes a deep path column into that many objects in every row: both are refused
 * (gcf-guard.ts).
 */
export const gcf: Format = {
  ...FORMAT_INFO.gcf,
  encode: (value: JsonValue) => {
    assertEncodableDepth(value);
    let text: string;
    try {
      text = encodeGeneric(value);
    } catch (err) {
      throw loneSurrogateError('gcf', value) ?? new DataError(`GCF cannot encode this value: ${(err as Error).message}`, undefined, err);
    }
    if (!isWellFormed(text)) throw loneSurrogateError('gcf', value) ?? new DataError('GCF output is not valid UTF-8 text');
    return text;
  },
  decode: (text: string) => {
    const deep = overIndented(text, GCF_INDENT);
    if (deep) throw new DataError(depthMessage(), deep);
    assertBoundedDecode(text);
    let value: JsonValue;
    try {
      value = toPlain(decodeRefusingDroppedColumns(text, decodeGeneric));
    } catch (err) {
      if (err instanceof DataError) throw err;
      throw new DataError(`invalid GCF: ${(err as Error).message}`, undefined, err);
    }
    const loss = findNumberLoss(text, value);
    if (loss) throw new DataError(`number ${loss.literal} ${loss.loss}`, lineColAt(text, loss.offset));
    return value;
  },
};

/** decodeGeneric returns Map objects for JSON objects (its docs say plain objects). Iterative: values may be deep. */
function toPlain(root: unknown): JsonValue {
  const convert = (value: unknown, put: (v: JsonValue) => void, work: Array<() => void>): void => {
    if (value instanceof Map) {
      const out: Record<string, JsonValue> = {};
      put(out);
      for (const [k, v] of value) work.push(() => convert(v, (x) => define(out, String(k), x), work));
    } else if (Array.isArray(value)) {
      const out: JsonValue[] = new Array<JsonValue>(value.length);
      put(out);
      value.forEach((v, i) => work.push(() => convert(v, (x) => (out[i] = x), work)));
    } else if (value !== null && typeof value === 'object') {
      const out: Record<string, JsonValue> = {};
      put(out);
      for (const k of Object.keys(value)) work.push(() => convert((value as Record<string, unknown>)[k], (x) => define(out, k, x), work));
    } else {
      put(value as JsonValue);
    }
  };
  let result: JsonValue = null;
  // Members are defined in the order the work runs, so run it first in, first out to keep key order.
  const work: Array<() => void> = [];
  convert(root, (v) => (result = v), work);
  for (let i = 0; i < work.length; i++) work[i]!();
  return result;
}

/** defineProperty, so a "__proto__" key stays an own property instead of setting the prototype. */
function define(out: Record<string, JsonValue>, key: string, value: JsonValue): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}
