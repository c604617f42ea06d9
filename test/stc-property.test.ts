import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DataError } from '../src/errors.js';
import type { JsonValue } from '../src/json/types.js';
import { decodeStc, encodeStc, keyText, tableFields } from '../src/formats/stc/index.js';
import { anyCodePoint, PROPERTY_RUNS, scaledRuns } from './helpers/arbitraries.js';

const RUNS = PROPERTY_RUNS;
const same = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

/** Builds objects the way JSON.parse does: every key, `__proto__` included, becomes an own property. */
function objectOf(entries: readonly (readonly [string, JsonValue])[]): JsonValue {
  const o: Record<string, JsonValue> = {};
  for (const [k, v] of entries) Object.defineProperty(o, k, { value: v, writable: true, enumerable: true, configurable: true });
  return o;
}

// Fragments that broke the ADR's regex decoders, and characters JSON must escape.
const syntaxPiece = fc.constantFrom(
  '/',
  ' / ',
  ',',
  ', ',
  '{',
  '}',
  '[',
  ']',
  ':',
  ': ',
  '"',
  '\\',
  '\\"',
  '[2]{a,b}: ',
  'x[1]: ',
  '[0]',
  '{}',
  '[]',
  '\n',
  '\r\n',
  '\t',
  '\u0000',
  '\u001f',
  '\u007f',
  '\u2028',
  '\ufeff',
  'true',
  'null',
  '1',
  '-0',
  '1e5',
  ' ',
  'é',
  '😀',
);
const loneSurrogate = fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c));
const controlChar = fc.integer({ min: 0, max: 0x1f }).map((c) => String.fromCharCode(c));
const stcString = fc.string({
  unit: fc.oneof(
    { weight: 4, arbitrary: syntaxPiece },
    { weight: 2, arbitrary: fc.string({ unit: 'grapheme', minLength: 1, maxLength: 1 }) },
    { weight: 1, arbitrary: controlChar },
    { weight: 1, arbitrary: loneSurrogate },
  ),
  maxLength: 8,
});

const identifier = fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,6}$/);
const key = fc.oneof(
  { weight: 4, arbitrary: identifier },
  {
    weight: 2,
    arbitrary: fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', 'true', 'null', '', '0', '12', 'a b', 'a-b', 'é'),
  },
  { weight: 2, arbitrary: stcString },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 4 }) },
);

const number = fc.oneof(
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.constantFrom(0, -0, 1e21, 1e-7, 5e-324, Number.MAX_VALUE, Number.MAX_SAFE_INTEGER + 2, 0.1),
);
const scalar: fc.Arbitrary<JsonValue> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  number,
  { weight: 3, arbitrary: stcString },
  fc.string({ unit: 'grapheme', maxLength: 6 }),
);

/** Arrays of objects with one shared key list and scalar values: the shapes that become tables. */
const table = fc
  .tuple(fc.uniqueArray(key, { minLength: 1, maxLength: 5 }), fc.integer({ min: 2, max: 6 }))
  .chain(([keys, n]) =>
    fc
      .array(fc.array(scalar, { minLength: keys.length, maxLength: keys.length }), { minLength: n, maxLength: n })
      .map((rows) => rows.map((cells) => objectOf(keys.map((k, i) => [k, cells[i]!] as const)))),
  );

/** Nearly tables: one row loses a key, gains a nested value, or has its keys reversed. */
const nearTable = fc.tuple(table, fc.nat(), fc.constantFrom('drop', 'nest', 'reverse', 'scalar')).map(([rows, pick, how]) => {
  const i = pick % rows.length;
  const entries = Object.entries(rows[i] as Record<string, JsonValue>);
  const out = rows.slice();
  if (how === 'drop') out[i] = objectOf(entries.slice(1));
  else if (how === 'nest') out[i] = objectOf(entries.map(([k, v], j) => [k, j === 0 ? [v] : v] as const));
  else if (how === 'reverse') out[i] = objectOf(entries.slice().reverse());
  else out[i] = 'not an object';
  return out;
});

const { value: stcValue } = fc.letrec<{ value: JsonValue; object: JsonValue; array: JsonValue }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    { weight: 3, arbitrary: scalar },
    { weight: 2, arbitrary: tie('object') },
    { weight: 2, arbitrary: tie('array') },
    { weight: 2, arbitrary: table },
    { weight: 1, arbitrary: nearTable },
    { weight: 1, arbitrary: fc.array(scalar, { maxLength: 6 }) },
  ),
  object: fc.array(fc.tuple(key, tie('value')), { maxLength: 5 }).map(objectOf),
  array: fc.array(tie('value'), { maxLength: 5 }),
}));

function roundTrips(v: JsonValue): void {
  const text = encodeStc(v);
  const back = decodeStc(text);
  assert.equal(JSON.stringify(back), JSON.stringify(v), `text: ${text}`);
}

describe('STC properties', () => {
  it(`decode(encode(x)) equals x for ${RUNS} fc.jsonValue() values`, () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => roundTrips(v as JsonValue)),
      { numRuns: RUNS },
    );
  });

  it(`decode(encode(x)) equals x for ${RUNS} values biased toward tables, STC syntax in strings and odd keys`, () => {
    let tables = 0;
    fc.assert(
      fc.property(stcValue, (v) => {
        if (encodeStc(v).includes(']{')) tables++;
        roundTrips(v);
      }),
      { numRuns: RUNS },
    );
    // The generator must really exercise tables, or this property proves little about them.
    assert.ok(tables > RUNS / 10, `only ${tables} of ${RUNS} values contained a table`);
  });

  it('round-trips unicode, control characters and lone surrogates in keys and strings', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: anyCodePoint }), (v) => roundTrips(v as JsonValue)),
      { numRuns: scaledRuns(2_000) },
    );
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'grapheme' }), (v) => roundTrips(v as JsonValue)),
      { numRuns: scaledRuns(2_000) },
    );
    fc.assert(
      fc.property(fc.array(fc.string({ unit: fc.oneof(loneSurrogate, controlChar) })), (v) => roundTrips(v)),
      { numRuns: scaledRuns(1_000) },
    );
  });

  it('numbers round-trip exactly (-0 becomes 0, like JSON)', () => {
    fc.assert(
      fc.property(fc.array(number, { minLength: 1 }), (nums) => {
        const back = decodeStc(encodeStc(nums)) as number[];
        assert.equal(back.length, nums.length);
        nums.forEach((n, i) => assert.ok(Object.is(back[i], n === 0 ? 0 : n), `${n} came back as ${back[i]}`));
      }),
      { numRuns: scaledRuns(2_000) },
    );
  });

  it('encoding is deterministic and canonical: one text per value, a single line', () => {
    fc.assert(
      fc.property(stcValue, (v) => {
        const text = encodeStc(v);
        assert.equal(encodeStc(v), text);
        assert.equal(encodeStc(JSON.parse(JSON.stringify(v)) as JsonValue), text);
        assert.equal(encodeStc(decodeStc(text)), text);
        assert.ok(!text.includes('\n') && !text.includes('\r'), text);
      }),
      { numRuns: scaledRuns(3_000) },
    );
  });

  it('every JSON text, pretty or compact, decodes as STC to the same value', () => {
    fc.assert(
      fc.property(stcValue, (v) => {
        assert.ok(same(decodeStc(JSON.stringify(v)), v));
        assert.ok(same(decodeStc(JSON.stringify(v, null, 2)), v));
      }),
      { numRuns: scaledRuns(3_000) },
    );
  });
});

describe('STC wrong counts', () => {
  /** A non-empty scalar array or a table: the arrays that carry a count. */
  const counted = fc.oneof(fc.array(scalar, { minLength: 1, maxLength: 6 }), table);
  const headerOf = (arr: JsonValue[]): string => {
    const fields = tableFields(arr);
    return fields === null ? `[${arr.length}]:` : `[${arr.length}]{${fields.map(keyText).join(',')}}:`;
  };
  const rejects = (text: string): void => {
    assert.throws(() => decodeStc(text), DataError, `accepted ${text}`);
  };
  const withCount = (header: string, n: number): string => header.replace(/^\[\d+\]/, `[${n}]`);

  it('a count one too high or too low is rejected at the root and in an object member', () => {
    fc.assert(
      fc.property(counted, key, fc.boolean(), (arr, k, up) => {
        const n = arr.length;
        const wrong = up || n === 1 ? n + 1 : n - 1;
        const header = headerOf(arr);
        const root = encodeStc(arr);
        assert.ok(root.startsWith(header), root);
        rejects(withCount(header, wrong) + root.slice(header.length));

        const member = encodeStc(
          objectOf([
            [k, arr],
            ['after', 1],
          ]),
        );
        const prefix = `{${keyText(k)}`;
        assert.ok(member.startsWith(prefix + header), member);
        rejects(prefix + withCount(header, wrong) + member.slice(prefix.length + header.length));
      }),
      { numRuns: RUNS },
    );
  });

  it('a table header with a field added or removed is rejected', () => {
    fc.assert(
      fc.property(table, fc.boolean(), (rows, add) => {
        const text = encodeStc(rows);
        const fields = tableFields(rows)!;
        const header = headerOf(rows);
        fc.pre(add || fields.length > 1);
        const changed = add ? [...fields.map(keyText), '"zz extra"'] : fields.slice(0, -1).map(keyText);
        rejects(`[${rows.length}]{${changed.join(',')}}:` + text.slice(header.length));
      }),
      { numRuns: scaledRuns(3_000) },
    );
  });

  it('inside a list a wrong count never yields the original value (it may shift elements, spec 3.1)', () => {
    fc.assert(
      fc.property(counted, fc.boolean(), (arr, up) => {
        const n = arr.length;
        const wrong = up || n === 1 ? n + 1 : n - 1;
        const header = headerOf(arr);
        const list: JsonValue = [arr, 'after'];
        const text = encodeStc(list);
        const changed = '[' + withCount(header, wrong) + text.slice(1 + header.length);
        let back: JsonValue | undefined;
        try {
          back = decodeStc(changed);
        } catch (e) {
          assert.ok(e instanceof DataError);
          return;
        }
        assert.ok(!same(back, list), `${changed} decoded to the original value`);
      }),
      { numRuns: scaledRuns(3_000) },
    );
  });
});
