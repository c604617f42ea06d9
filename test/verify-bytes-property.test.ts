import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { describe, it } from 'node:test';
import { decodeGeneric } from '@blackwell-systems/gcf';
import { decode as toonDecode } from '@toon-format/toon';
import fc from 'fast-check';
import { convert } from '../src/convert/convert.js';
import { DataError } from '../src/errors.js';
import { loadFormat } from '../src/formats/registry.js';
import type { FormatName } from '../src/formats/types.js';
import { readInput } from '../src/io/read-input.js';
import { jsonEqual } from '../src/json/equal.js';
import { parseJson } from '../src/json/parse.js';
import { anyJson, scaledRuns } from './helpers/arbitraries.js';
import { meaningOf } from './helpers/exact-json.js';
import { FULL_SUITE } from './helpers/sampling.js';

/** Number literals: ordinary ones, and the ones a double cannot hold. */
const numberLiteral = fc.oneof(
  fc.integer().map(String),
  fc.double({ noNaN: true, noDefaultInfinity: true }).map((n) => JSON.stringify(n)),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.constantFrom(
    '1e400',
    '-1e400',
    '1e-400',
    '-1e-400',
    '0.10000000000000001',
    '9007199254740993',
    '9007199254740992',
    '-0',
    '1E2',
    '0.0',
    '1.5e3',
    '123456789012345678901234567890e-10',
    '5e-324',
    '2e-324',
    '1.7976931348623157e308',
    '1.7976931348623159e308',
    '0e999',
  ),
);

/** String literals built from escapes, including lone surrogates and valid pairs. */
const stringLiteral = fc
  .array(
    fc.oneof(
      fc.string({ maxLength: 4 }).map((s) => JSON.stringify(s).slice(1, -1)),
      fc.constantFrom('\\ud800', '\\udfff', '\\ud83d\\ude00', '\\u0041', 'é', '😀', '\\n', '\\u0000', ' 1e400', '12345678901234567890'),
    ),
    { maxLength: 3 },
  )
  .map((parts) => `"${parts.join('')}"`);

/** Few distinct keys, so duplicates and integer-like keys out of order come up often. */
const keyLiteral = fc.oneof(fc.constantFrom('"a"', '"b"', '"1"', '"2"', '"__proto__"', '"\\u0061"', '"\\ud800"', '"x y"'), stringLiteral);

const { value: jsonText } = fc.letrec<{ value: string }>((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    numberLiteral,
    stringLiteral,
    fc.constantFrom('true', 'false', 'null'),
    fc.array(tie('value'), { maxLength: 4 }).map((items) => `[${items.join(', ')}]`),
    fc
      .array(fc.tuple(keyLiteral, tie('value')), { maxLength: 4 })
      .map((members) => `{${members.map(([k, v]) => `${k}: ${v}`).join(', ')}}`),
  ),
}));

/** Bytes of a JSON text, sometimes with a byte sequence that is not UTF-8 spliced in. */
const inputBytes = fc
  .tuple(jsonText, fc.option(fc.tuple(fc.nat(), fc.constantFrom([0xff], [0xc3], [0xed, 0xa0, 0x80], [0xc0, 0xaf], [0x80])), { freq: 4 }))
  .map(([text, bad]) => {
    const bytes = Buffer.from(text, 'utf8');
    if (bad === null) return { bytes, utf8: true };
    const [at, seq] = bad;
    const i = at % (bytes.length + 1);
    return { bytes: Buffer.concat([bytes.subarray(0, i), Buffer.from(seq), bytes.subarray(i)]), utf8: false };
  });

/** What a reader of the written bytes gets back, as an exact meaning: decoded by each format's reference decoder. */
function meaningOfOutput(to: FormatName, output: string, stcDecode: (t: string) => unknown): string {
  const received = Buffer.from(output, 'utf8').toString('utf8');
  if (to === 'json' || to === 'json-compact') return meaningOf(received);
  const plain = (v: unknown): unknown =>
    v instanceof Map ? Object.fromEntries([...v].map(([k, x]) => [k, plain(x)])) : Array.isArray(v) ? v.map(plain) : v;
  const decoded = to === 'toon' ? toonDecode(received) : to === 'gcf' ? plain(decodeGeneric(received)) : stcDecode(received);
  return meaningOf(JSON.stringify(decoded));
}

/**
 * A run converts to one of five formats, and about one input in six is verified, the rest refused:
 * 1,000 runs give each format about 33 verified, of which the check below wants more than 10, as it
 * wants more than 30 of about 100 from the corpus suite's 3,000.
 */
const VERIFY_RUNS = FULL_SUITE ? 3000 : 1000;

describe('--verify never calls a changed value verified (property, against the meaning of the input bytes)', () => {
  it('for JSON texts with big numbers, duplicate keys, lone surrogates and bad bytes: verified means the same meaning, else a DataError', async () => {
    const stc = await loadFormat('stc');
    /** Per format: [verified, refused]. */
    const outcomes: Record<string, [number, number]> = {};
    await fc.assert(
      fc.asyncProperty(
        inputBytes,
        fc.constantFrom<FormatName>('json', 'json-compact', 'toon', 'stc', 'gcf'),
        async ({ bytes, utf8 }, to) => {
          let result;
          try {
            const input = await readInput('-', Readable.from([bytes]));
            result = await convert({ input, to, from: 'json', verify: true });
          } catch (err) {
            assert.ok(err instanceof DataError, `expected a DataError, got ${String(err)}`);
            assert.equal(err.oneLine().includes('\n'), false);
            (outcomes[to] ??= [0, 0])[1]++;
            return;
          }
          assert.equal(result.verification?.lossless, true);
          assert.ok(utf8, 'bytes that are not UTF-8 were converted');
          const input = bytes.toString('utf8');
          assert.equal(
            meaningOfOutput(to, result.output, (t) => stc.decode(t)),
            meaningOf(input),
            `${to} changed the meaning of ${input}`,
          );
          (outcomes[to] ??= [0, 0])[0]++;
        },
      ),
      { numRuns: VERIFY_RUNS },
    );
    // Both outcomes occur for every format: the property is not vacuous either way.
    const least = VERIFY_RUNS / 100;
    for (const [verified, refused] of Object.values(outcomes)) assert.ok(verified > least && refused > least, JSON.stringify(outcomes));
    assert.equal(Object.keys(outcomes).length, 5);
  });

  it('the reader accepts everything JSON.stringify writes, and reads it back unchanged', () => {
    fc.assert(
      fc.property(anyJson, fc.constantFrom(0, 2), (value, indent) => {
        const text = JSON.stringify(value, null, indent);
        return jsonEqual(parseJson(text), JSON.parse(text));
      }),
      { numRuns: scaledRuns(2000) },
    );
  });

  it('on any text JSON.parse accepts, the reader gives the same value or refuses a change with a position', () => {
    fc.assert(
      fc.property(jsonText, (text) => {
        let value;
        try {
          value = parseJson(text, 'in.json');
        } catch (err) {
          assert.ok(err instanceof DataError);
          assert.match(err.oneLine(), /^in\.json:\d+:\d+: (number |duplicate key |key )/);
          return;
        }
        assert.ok(jsonEqual(value, JSON.parse(text)));
        assert.equal(meaningOf(JSON.stringify(value)), meaningOf(text));
      }),
      { numRuns: scaledRuns(3000) },
    );
  });
});
