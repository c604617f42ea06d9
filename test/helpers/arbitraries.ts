import fc from 'fast-check';
import { FULL_SUITE } from './sampling.js';
import type { JsonValue } from '../../src/json/types.js';

/**
 * One Unicode scalar value (any code point but a surrogate), as fc.string({ unit: 'binary' }) draws
 * them, biased the same way toward both ends. The built-in unit costs about 0.8 s of CPU per test
 * process before its first value (it tabulates all 1.1M code points); this one costs nothing.
 */
const SURROGATES = 0xe000 - 0xd800;
export const anyCodePoint = fc
  .integer({ min: 0, max: 0x10ffff - SURROGATES })
  .map((i) => String.fromCodePoint(i < 0xd800 ? i : i + SURROGATES));

/** Keys every format writes bare: the identifier rule shared by STC and TOON. */
export const identifierKey = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,8}$/);

const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: anyCodePoint }),
  fc.constantFrom(
    '',
    ' ',
    'a / b',
    'x[1]: y',
    '[2]{a,b}: 1,2',
    '"',
    '\\',
    '\n',
    '#',
    '- item',
    'true',
    'null',
    '42',
    '-0',
    '1e5',
    ' padded ',
  ),
);

/**
 * JSON values biased toward what tool output looks like: arrays of same-shaped objects
 * (tables), awkward strings, and keys from `key`.
 */
export function jsonValueLike(key: fc.Arbitrary<string>): fc.Arbitrary<JsonValue> {
  const { value } = fc.letrec<{ value: JsonValue; table: JsonValue }>((tie) => ({
    value: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      scalar,
      fc.array(tie('value'), { maxLength: 5 }),
      fc.dictionary(key, tie('value'), { maxKeys: 5 }) as fc.Arbitrary<JsonValue>,
      tie('table'),
    ),
    // Rows with one key set, in one order or (as API items often are) each in its own order.
    table: fc.uniqueArray(key, { minLength: 1, maxLength: 4 }).chain((keys) =>
      fc.array(
        fc
          .tuple(
            fc.tuple(...keys.map(() => fc.oneof(scalar, tie('value')))),
            fc.oneof(fc.constant(keys), fc.shuffledSubarray(keys, { minLength: keys.length, maxLength: keys.length })),
          )
          .map(([vals, order]) =>
            objectOf(
              order,
              order.map((k) => vals[keys.indexOf(k)]!),
            ),
          ),
        { minLength: 1, maxLength: 4 },
      ),
    ),
  }));
  return value;
}

function objectOf(keys: string[], vals: JsonValue[]): JsonValue {
  const o: Record<string, JsonValue> = {};
  keys.forEach((k, i) => Object.defineProperty(o, k, { value: vals[i], enumerable: true, writable: true, configurable: true }));
  return o;
}

/** Any JSON value at all, including odd keys such as "__proto__", "[", ">" and "". */
export const anyJson: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.jsonValue() as fc.Arbitrary<JsonValue>,
  jsonValueLike(fc.oneof(identifierKey, fc.string(), fc.constantFrom('__proto__', 'constructor', '[', '>', 'a b', 'a,b', '}', '"', ''))),
);

/** 10,000 values per property in the corpus suite (`npm run test:corpus`), 500 in the fast one. */
export const PROPERTY_RUNS = Number(process.env.DEVBOY_PROPERTY_RUNS ?? (FULL_SUITE ? 10_000 : 500));

/** A property's own run count in the corpus suite, and a fifth of it (at least 100) in the fast one. */
export function scaledRuns(full: number): number {
  return FULL_SUITE ? full : Math.max(100, Math.round(full / 5));
}
