import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { DataError } from '../src/errors.js';
import type { JsonValue } from '../src/json/types.js';
import { decodeStc, encodeStc, MAX_DEPTH, stc } from '../src/formats/stc/index.js';

// Compiled to dist/test/, so the repository root is two levels up; fixtures and docs are read from source.
const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const FIXTURES = join(ROOT, 'test', 'fixtures', 'stc');
const SPEC = join(ROOT, 'docs', 'formats', 'stc.md');

interface EncodeCase {
  name: string;
  input: JsonValue;
  expected: string;
}
interface DecodeCase {
  name: string;
  text: string;
  expected: JsonValue;
}
interface ErrorCase {
  name: string;
  text: string;
  error: { line: number; col: number; messageIncludes: string };
}
interface FixtureFile<T> {
  version: string;
  category: 'encode' | 'decode' | 'decode-error';
  description: string;
  tests: T[];
}

function loadFixtures(): FixtureFile<EncodeCase | DecodeCase | ErrorCase>[] {
  return readdirSync(FIXTURES)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(FIXTURES, f), 'utf8')) as FixtureFile<EncodeCase | DecodeCase | ErrorCase>);
}

const fixtures = loadFixtures();
const encodeCases = fixtures.filter((f) => f.category === 'encode').flatMap((f) => f.tests as EncodeCase[]);
const decodeCases = fixtures.filter((f) => f.category === 'decode').flatMap((f) => f.tests as DecodeCase[]);
const errorCases = fixtures.filter((f) => f.category === 'decode-error').flatMap((f) => f.tests as ErrorCase[]);

const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Decoding must fail with a DataError at exactly this place, saying (at least) this. */
function assertDecodeError(text: string, error: ErrorCase['error']): void {
  assert.throws(
    () => decodeStc(text),
    (err: unknown) => {
      assert.ok(err instanceof DataError, `expected a DataError, got ${String(err)}`);
      assert.deepEqual({ line: err.location.line, col: err.location.col }, { line: error.line, col: error.col }, err.message);
      assert.ok(err.message.startsWith('invalid STC: '), err.message);
      assert.ok(
        err.message.includes(error.messageIncludes),
        `message ${JSON.stringify(err.message)} lacks ${JSON.stringify(error.messageIncludes)}`,
      );
      return true;
    },
  );
}

describe('STC conformance fixtures', () => {
  it('has fixtures of every category', () => {
    assert.ok(encodeCases.length >= 80, `only ${encodeCases.length} encode cases`);
    assert.ok(decodeCases.length >= 20, `only ${decodeCases.length} decode cases`);
    assert.ok(errorCases.length >= 50, `only ${errorCases.length} decode-error cases`);
  });

  for (const file of fixtures) {
    describe(`${file.category}: ${file.description}`, () => {
      for (const t of file.tests) {
        if (file.category === 'encode') {
          const c = t as EncodeCase;
          it(`${c.name}: encodes to the canonical text and decodes back`, () => {
            assert.equal(encodeStc(c.input), c.expected);
            const back = decodeStc(c.expected);
            assert.equal(JSON.stringify(back), JSON.stringify(c.input));
          });
        } else if (file.category === 'decode') {
          const c = t as DecodeCase;
          it(`${c.name}: decodes`, () => {
            assert.equal(JSON.stringify(decodeStc(c.text)), JSON.stringify(c.expected));
            // Lenient input is not canonical; re-encoding normalises it.
            assert.equal(encodeStc(decodeStc(c.text)), encodeStc(c.expected));
          });
        } else {
          const c = t as ErrorCase;
          it(`${c.name}: is rejected at ${c.error.line}:${c.error.col}`, () => assertDecodeError(c.text, c.error));
        }
      }
    });
  }
});

describe('STC spec examples (docs/formats/stc.md) agree with the fixtures', () => {
  const spec = readFileSync(SPEC, 'utf8');
  const blocks = [...spec.matchAll(/^```(\S+)([^\n]*)\n([\s\S]*?)\n```$/gm)].map((m) => ({ lang: m[1]!, info: m[2]!.trim(), body: m[3]! }));

  const encodePairs: { json: string; stc: string }[] = [];
  const decodePairs: { stc: string; json: string }[] = [];
  const errors: { text: string; line: number; col: number; message: string }[] = [];
  for (let i = 0; i < blocks.length; i++) {
    const b = blocks[i]!;
    const next = blocks[i + 1];
    if (b.lang === 'json' && next?.lang === 'stc') encodePairs.push({ json: b.body, stc: next.body });
    if (b.lang === 'stc-input' && next?.lang === 'json') decodePairs.push({ stc: b.body, json: next.body });
    if (b.lang === 'stc-error') {
      const m = /^(\d+):(\d+) (.+)$/.exec(b.info);
      assert.ok(m, `stc-error fence needs "line:col message", got ${JSON.stringify(b.info)}`);
      errors.push({ text: b.body, line: Number(m[1]), col: Number(m[2]), message: m[3]! });
    }
  }

  it('has examples of each kind', () => {
    assert.ok(encodePairs.length >= 15, `${encodePairs.length} encode examples`);
    assert.ok(decodePairs.length >= 3, `${decodePairs.length} decode examples`);
    assert.ok(errors.length >= 8, `${errors.length} error examples`);
  });

  for (const ex of encodePairs) {
    it(`encode example ${ex.stc}`, () => {
      const input = JSON.parse(ex.json) as JsonValue;
      assert.equal(encodeStc(input), ex.stc);
      assert.ok(same(decodeStc(ex.stc), input));
      assert.ok(
        encodeCases.some((c) => c.expected === ex.stc && same(c.input, input)),
        'the spec example is missing from test/fixtures/stc/encode-*.json',
      );
    });
  }

  for (const ex of decodePairs) {
    it(`decode example ${JSON.stringify(ex.stc)}`, () => {
      const expected = JSON.parse(ex.json) as JsonValue;
      assert.ok(same(decodeStc(ex.stc), expected));
      assert.ok(
        decodeCases.some((c) => c.text === ex.stc && same(c.expected, expected)),
        'the spec example is missing from test/fixtures/stc/decode-*.json',
      );
    });
  }

  for (const ex of errors) {
    it(`error example ${JSON.stringify(ex.text)}`, () => {
      assertDecodeError(ex.text, { line: ex.line, col: ex.col, messageIncludes: ex.message });
      assert.ok(
        errorCases.some(
          (c) => c.text === ex.text && c.error.line === ex.line && c.error.col === ex.col && c.error.messageIncludes === ex.message,
        ),
        'the spec example is missing from test/fixtures/stc/decode-errors.json',
      );
    });
  }
});

describe('STC limits and non-JSON input', () => {
  const nestedArrays = (depth: number): JsonValue => {
    let v: JsonValue = 1;
    for (let i = 0; i < depth; i++) v = [v, 0];
    return v;
  };
  const nestedObjects = (depth: number): JsonValue => {
    let v: JsonValue = 1;
    for (let i = 0; i < depth; i++) v = { a: v };
    return v;
  };

  it(`round-trips nesting of exactly ${MAX_DEPTH} levels`, () => {
    for (const v of [nestedArrays(MAX_DEPTH), nestedObjects(MAX_DEPTH)]) {
      const text = encodeStc(v);
      assert.ok(same(decodeStc(text), v));
    }
  });

  it(`refuses to encode nesting deeper than ${MAX_DEPTH} levels`, () => {
    for (const v of [nestedArrays(MAX_DEPTH + 1), nestedObjects(MAX_DEPTH + 1)]) {
      assert.throws(
        () => encodeStc(v),
        (e: unknown) => e instanceof DataError && /nesting deeper than 1000/.test(e.message),
      );
    }
  });

  it('counts the row objects of a table as one more level', () => {
    let v: JsonValue = [{ a: 1 }, { a: 2 }];
    for (let i = 0; i < MAX_DEPTH - 2; i++) v = [v, 0];
    assert.ok(same(decodeStc(encodeStc(v)), v));
    assert.throws(() => encodeStc([v, 0]), DataError);
    assert.throws(
      () => decodeStc(`[${encodeStc(v)},0]`),
      (e: unknown) => e instanceof DataError && /nesting deeper/.test(e.message),
    );
  });

  it(`rejects text nested deeper than ${MAX_DEPTH} levels with a located error`, () => {
    const text = '['.repeat(MAX_DEPTH + 1) + ']'.repeat(MAX_DEPTH + 1);
    assertDecodeError(text, { line: 1, col: MAX_DEPTH + 1, messageIncludes: 'nesting deeper than 1000 levels' });
    assertDecodeError('{a:'.repeat(MAX_DEPTH + 1) + '1' + '}'.repeat(MAX_DEPTH + 1), {
      line: 1,
      col: 3 * MAX_DEPTH + 1,
      messageIncludes: 'nesting deeper than 1000 levels',
    });
  });

  it('refuses values that are not JSON', () => {
    for (const bad of [Number.NaN, Number.POSITIVE_INFINITY, -Infinity, undefined, () => 1, Symbol('s'), 10n]) {
      for (const wrapped of [bad, [bad], [1, bad], { k: bad }, [{ a: bad }, { a: 1 }]]) {
        assert.throws(() => encodeStc(wrapped as unknown as JsonValue), DataError, String(bad));
      }
    }
  });

  it('refuses cyclic values instead of overflowing the stack', () => {
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    assert.throws(() => encodeStc(cyclic as JsonValue), DataError);
  });

  it('is the stc entry of the format registry shape', () => {
    assert.equal(stc.name, 'stc');
    assert.equal(stc.mediaType, 'application/stc+json');
    assert.equal(stc.extension, '.stc');
    assert.equal(stc.encode({ a: [1] }), '{a[1]:1}');
    assert.deepEqual(stc.decode('{a[1]:1}'), { a: [1] });
  });

  it('decodes __proto__ to an own property without touching the prototype', () => {
    const v = decodeStc('{__proto__:{polluted:1},b[2]{__proto__}:1 / 2}') as Record<string, unknown>;
    assert.equal(Object.getPrototypeOf(v), Object.prototype);
    assert.ok(Object.hasOwn(v, '__proto__'));
    assert.deepEqual(Object.keys(v), ['__proto__', 'b']);
    const rows = v['b'] as Record<string, unknown>[];
    assert.ok(rows.every((r) => Object.hasOwn(r, '__proto__') && Object.getPrototypeOf(r) === Object.prototype));
    assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
  });
});
