// The faster STC encoder and decoder must be indistinguishable from the reference (test/stc-reference/,
// the code as it was before): same bytes out of the encoder, same values, errors, lines and columns out
// of the decoder, on the corpus and on generated values and texts aimed at the fast paths.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DataError } from '../src/errors.js';
import type { JsonValue } from '../src/json/types.js';
import { decodeStc, encodeStc } from '../src/formats/stc/index.js';
import { anyJson, PROPERTY_RUNS } from './helpers/arbitraries.js';
import { FULL_SUITE } from './helpers/sampling.js';

/** The reference comparison is a second opinion on codecs the STC property tests already cover: fewer values in the fast suite. */
const REFERENCE_RUNS = FULL_SUITE ? PROPERTY_RUNS : 300;
import { sampledExchanges } from './helpers/corpus-bodies.js';
import { decodeStcReference, encodeStcReference } from './stc-reference/index.js';

type Outcome = { ok: true; value: unknown; json: string | undefined } | { ok: false; message: string; line?: number; col?: number };

function run(f: () => unknown): Outcome {
  try {
    const value = f();
    return { ok: true, value, json: typeof value === 'string' ? value : JSON.stringify(value) };
  } catch (e) {
    if (!(e instanceof DataError)) throw e;
    return { ok: false, message: e.message, line: e.location.line, col: e.location.col };
  }
}

/** Same outcome: equal values (deepStrictEqual tells -0 from 0 and checks prototypes; JSON text checks key order) or the same error. */
function assertSame(actual: Outcome, expected: Outcome, what: string): void {
  if (actual.ok && expected.ok) {
    assert.equal(actual.json, expected.json, what);
    assert.deepStrictEqual(actual.value, expected.value, what);
  } else {
    assert.deepStrictEqual(actual, expected, what);
  }
}

function show(v: unknown): string {
  try {
    return String(JSON.stringify(v)).slice(0, 200);
  } catch {
    return String(v);
  }
}

const sameEncoding = (v: unknown): void =>
  assertSame(
    run(() => encodeStc(v as JsonValue)),
    run(() => encodeStcReference(v as JsonValue)),
    `encoding ${show(v)}`,
  );
const sameDecoding = (text: string): void =>
  assertSame(
    run(() => decodeStc(text)),
    run(() => decodeStcReference(text)),
    `decoding ${JSON.stringify(text.slice(0, 200))}`,
  );

// Characters on every branch of the encoder's and the string scanner's fast paths: plain ASCII, what JSON
// escapes, Latin-1 above ASCII (kept in the byte buffer), above U+00FF (kept as a part), lone surrogates.
const nastyChar = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'Z', '0', ' ', '/', ',', ':', '{', '}', '[', ']') },
  { weight: 3, arbitrary: fc.constantFrom('"', '\\', '\\"', '\\\\', '\\u', 'u', 'f', 'F', 'n', 'b') },
  { weight: 2, arbitrary: fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c)) },
  { weight: 2, arbitrary: fc.integer({ min: 0x7f, max: 0xff }).map((c) => String.fromCharCode(c)) },
  { weight: 1, arbitrary: fc.constantFrom('\u0100', '\u2028', 'é', '€', '😀', '\ufeff') },
  { weight: 1, arbitrary: fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)) },
);
// Lengths on both sides of the encoder's 256-character cut and the decoder's 64-character cut.
const nastyString = fc.oneof(
  fc.string({ unit: nastyChar, maxLength: 80 }),
  fc.string({ unit: nastyChar, minLength: 240, maxLength: 300 }),
  fc.string({ unit: fc.constantFrom('a', ' ', '.'), minLength: 250, maxLength: 1200 }),
);
const edgeNumber = fc.oneof(
  fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 9, 10, -10, 999_999_999, -999_999_999, 1e9, -1e9, 2 ** 31, -(2 ** 31), 2 ** 32, 1e21, 1e-7, 0.5, -0.5, 5e-324),
);
const { value: nastyValue } = fc.letrec<{ value: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: fc.oneof(nastyString, edgeNumber, fc.boolean(), fc.constant(null)) },
    { weight: 2, arbitrary: fc.array(tie('value'), { maxLength: 5 }) },
    { weight: 2, arbitrary: fc.dictionary(fc.oneof(fc.stringMatching(/^[a-z_]\w{0,5}$/), nastyString), tie('value'), { maxKeys: 5 }) },
    // Same keys in every row, scalar cells: a table.
    {
      weight: 2,
      arbitrary: fc.uniqueArray(fc.oneof(fc.stringMatching(/^[a-z]{1,3}$/), nastyString), { minLength: 1, maxLength: 3 }).chain((keys) =>
        fc.array(
          fc
            .tuple(...keys.map(() => fc.oneof(nastyString, edgeNumber, fc.constant(null))))
            .map((cells) => Object.fromEntries(keys.map((k, i) => [k, cells[i]!]))),
          { minLength: 2, maxLength: 4 },
        ),
      ),
    },
  ),
}));

/** One to three edits (insert, delete, replace) at random places, with characters that matter to the scanner. */
const mutated = (texts: fc.Arbitrary<string>): fc.Arbitrary<string> =>
  fc
    .tuple(texts, fc.array(fc.tuple(fc.constantFrom('insert', 'delete', 'replace'), fc.nat(), nastyChar), { minLength: 1, maxLength: 3 }))
    .map(([text, edits]) => {
      let t = text;
      for (const [how, at, c] of edits) {
        const i = t.length === 0 ? 0 : at % (t.length + (how === 'insert' ? 1 : 0));
        if (how === 'insert') t = t.slice(0, i) + c + t.slice(i);
        else if (how === 'delete') t = t.slice(0, i) + t.slice(i + 1);
        else t = t.slice(0, i) + c + t.slice(i + 1);
      }
      return t;
    });

// The fast suite takes the corpus bodies up to 30,000 characters (186 of 228, 0.9 MB as one STC
// array; the decoder every other one of them); npm run test:corpus takes every one.
describe('STC encoder matches the reference byte for byte', () => {
  it('on every corpus body, and on the whole corpus as one array (output far beyond one buffer chunk)', async () => {
    const bodies = (await sampledExchanges(1)).map((e) => e.response.body as JsonValue);
    assert.ok(bodies.length >= (FULL_SUITE ? 200 : 150), `only ${bodies.length} bodies`);
    for (const body of bodies) assert.equal(encodeStc(body), encodeStcReference(body));
    const all = encodeStc(bodies);
    assert.ok(all.length > (FULL_SUITE ? 1_000_000 : 500_000), `${all.length} characters`);
    assert.equal(all, encodeStcReference(bodies));
  });

  it(`on ${REFERENCE_RUNS} generated JSON values`, () => {
    fc.assert(fc.property(anyJson, sameEncoding), { numRuns: REFERENCE_RUNS });
  });

  it(`on ${REFERENCE_RUNS} values with escapes, Latin-1, astral and lone-surrogate strings and edge numbers`, () => {
    fc.assert(fc.property(nastyValue, sameEncoding), { numRuns: REFERENCE_RUNS });
  });

  it('on values whose text crosses many buffer chunks', () => {
    fc.assert(fc.property(fc.array(fc.oneof(nastyString, edgeNumber, nastyValue), { minLength: 300, maxLength: 600 }), sameEncoding), {
      // Five long texts in the fast suite: the chunk boundary test below and the corpus as one array cross chunks too.
      numRuns: FULL_SUITE ? 50 : 5,
    });
  });

  it('with every kind of piece landing on the first buffer chunk boundary (64 KiB)', () => {
    // 258 fillers of 250 characters fill 65,282 characters; a growing first string then slides the
    // tail across the buffer's end (65,536 characters up to U+00FF, a byte each) one position at a
    // time. A character above U+00FF ('€') or a long string starts a part of its own, and the buffer
    // starts afresh after it: so every kind of piece (numbers, escaped and Latin-1 strings, literals,
    // identifier and quoted keys, nested lists) comes before '€', and the sweep covers that stretch
    // only. An off-by-one planted in each of the buffer's bounds checks was caught here, and by no
    // position outside the stretch.
    const fillers = Array.from({ length: 258 }, () => 'x'.repeat(250));
    const tail: JsonValue[] = [
      -123456789,
      0,
      7,
      12.5,
      1e21,
      'ab',
      'a"b\\c\n',
      'ÿé',
      true,
      false,
      null,
      { key: 1, 'q k': [1, 'two'], é: [], n: {} },
      [
        { a: 1, 'b c': 'd' },
        { a: 2, 'b c': 'é' },
      ],
      [[1], []],
      '€',
      '😀',
      'y'.repeat(300),
    ];
    const CHUNK = 1 << 16;
    // Measured with the reference: the stretch the buffer holds (its '[' stands for the comma before
    // it) and where the tail starts when the first string is empty (the closing ']' is that comma).
    const stretch = encodeStcReference(tail.slice(0, tail.indexOf('€'))).length - 1;
    const start = encodeStcReference(['', ...fillers]).length;
    const first = CHUNK - start - stretch - 2;
    assert.ok(first > 0 && stretch > 100, `${first} ${stretch}`);
    for (let d = first; d <= CHUNK - start + 8; d++) sameEncoding(['p'.repeat(d), ...fillers, ...tail, ...tail]);
  });

  it('with the same errors for values that are not JSON', () => {
    const deep: JsonValue[] = [];
    let inner = deep;
    for (let i = 0; i < 1100; i++) {
      const next: JsonValue[] = [];
      inner.push(next, 1);
      inner = next;
    }
    for (const v of [undefined, NaN, -Infinity, [1, Infinity], { a: [{ b: NaN }, { b: 1 }] }, { f: () => 1 }, [Symbol('s')], 10n, deep]) {
      sameEncoding(v);
    }
  });
});

describe('STC decoder matches the reference value for value and error for error', () => {
  it('on every corpus body, as STC and as its own JSON text', async () => {
    for (const e of await sampledExchanges(2)) {
      const body = e.response.body as JsonValue;
      sameDecoding(encodeStc(body));
      sameDecoding(JSON.stringify(body, null, 1));
    }
  });

  it(`on ${REFERENCE_RUNS} encoder outputs and pretty JSON texts`, () => {
    fc.assert(
      fc.property(nastyValue, (v) => {
        sameDecoding(encodeStc(v));
        sameDecoding(JSON.stringify(v, null, 2));
      }),
      { numRuns: REFERENCE_RUNS },
    );
  });

  it(`on ${REFERENCE_RUNS} texts with one to three edits (mostly invalid)`, () => {
    let failures = 0;
    fc.assert(
      fc.property(mutated(nastyValue.map((v) => encodeStc(v))), (text) => {
        if (!run(() => decodeStcReference(text)).ok) failures++;
        sameDecoding(text);
      }),
      { numRuns: REFERENCE_RUNS },
    );
    // Most edits must break the text, or this says little about error messages and positions.
    assert.ok(failures > REFERENCE_RUNS / 3, `only ${failures} of ${REFERENCE_RUNS} edited texts were invalid`);
  });

  it(`on ${REFERENCE_RUNS} string tokens, closed or not, in every position a string can take`, () => {
    const token = fc.tuple(fc.string({ unit: nastyChar, maxLength: 300 }), fc.constantFrom('"', '', '\\"', '"x'));
    fc.assert(
      fc.property(token, fc.nat(4), ([body, close], where) => {
        const s = `"${body}${close}`;
        const text = [s, `[2]:${s},1`, `{${s}:1}`, `[2]{a,${s}}:1,2 / 3,4`, `{k:${s},"l":[${s}]}`][where]!;
        sameDecoding(text);
      }),
      { numRuns: REFERENCE_RUNS },
    );
  });

  it('on texts long enough for the identifier cache (4096 characters and more), intact and edited', () => {
    // 40 to 80 values make 26,000 to 200,000 characters (300 to 600, the full suite's, 270,000 to 1,000,000).
    const values = FULL_SUITE ? { minLength: 300, maxLength: 600 } : { minLength: 40, maxLength: 80 };
    const big = fc.array(nastyValue, values).map((vs) => encodeStc(vs));
    fc.assert(
      fc.property(big, (text) => {
        assert.ok(text.length >= 4096, `${text.length} characters`);
        sameDecoding(text);
      }),
      { numRuns: FULL_SUITE ? 100 : 5 },
    );
    // Long texts are slow to generate and to decode twice: the full suite (npm run test:corpus) runs 20x and 60x these, longer.
    fc.assert(fc.property(mutated(big), sameDecoding), { numRuns: FULL_SUITE ? 300 : 5 });
  });

  it('on objects with thousands of distinct keys (identifier cache collisions)', () => {
    const keys = Array.from({ length: 5000 }, (_, i) => `k${i.toString(36)}`);
    // Prefixes of each other, and the same keys again, so cached strings are reused and replaced.
    keys.push('a', 'ab', 'abc', 'abcd', 'b', 'ba', 'bab');
    const o = Object.fromEntries(keys.map((k, i) => [k, i]));
    const text = encodeStc([o, o, { ...o, k0: 'x' }]);
    sameDecoding(text);
    sameDecoding(text.replace('kz', 'k0'));
    assert.deepStrictEqual(decodeStc(text), [o, o, { ...o, k0: 'x' }]);
  });
});
