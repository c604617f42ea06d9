import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { exactFormats } from '../src/formats/info.js';
import { loadFormat } from '../src/formats/registry.js';
import { verifyRoundTrip } from '../src/formats/verify.js';
import type { JsonValue } from '../src/json/types.js';
import { anyJson, identifierKey, jsonValueLike, PROPERTY_RUNS } from './helpers/arbitraries.js';

const exact = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

describe('round-trip law: decode(encode(x)) equals x, values and key order', () => {
  for (const name of exactFormats()) {
    it(`${name}: ${PROPERTY_RUNS} generated JSON values`, async () => {
      const format = await loadFormat(name);
      fc.assert(
        fc.property(anyJson, (value) => {
          const back = format.decode(format.encode(value));
          assert.ok(exact(back, value), `${name} changed ${JSON.stringify(value)} into ${JSON.stringify(back)}`);
        }),
        { numRuns: PROPERTY_RUNS, seed: Number(process.env.DEVBOY_SEED ?? Date.now() % 2 ** 31) },
      );
    });
  }
});

describe('toon (upstream @toon-format/toon): every value kept; key order kept except across the rows of a table', () => {
  // A TOON table has one header, so rows with the same keys in another order come back in the
  // header's order: a key-order loss, like GCF's, that verify must name (docs/formats/toon.md).
  it('loses the key order of a table row, and verify says where', async () => {
    const toon = await loadFormat('toon');
    const value = [
      { a: 1, b: 2 },
      { b: 3, a: 4 },
    ];
    assert.equal(JSON.stringify(toon.decode(toon.encode(value))), '[{"a":1,"b":2},{"a":4,"b":3}]', 'upstream now keeps it: update docs');
    const check = verifyRoundTrip(toon, value);
    assert.equal(check.lossless, false);
    assert.equal(check.difference?.kind, 'key-order');
  });

  for (const options of [{}, { delimiter: '\t' as const, indent: 4 }, { delimiter: '|' as const, indent: 4 }]) {
    it(`${JSON.stringify(options)}: same values always; when key order changes, verify says so (${PROPERTY_RUNS} values)`, async () => {
      const toon = await loadFormat('toon', { toon: options });
      fc.assert(
        fc.property(anyJson, (value) => {
          const back = toon.decode(toon.encode(value));
          assert.ok(isDeepStrictEqual(back, JSON.parse(JSON.stringify(value))), `toon lost a value in ${JSON.stringify(value)}`);
          const check = verifyRoundTrip(toon, value);
          assert.equal(check.lossless, exact(back, value));
          if (!check.lossless) assert.equal(check.difference?.kind, 'key-order', check.reason);
        }),
        { numRuns: Object.keys(options).length === 0 ? PROPERTY_RUNS : Math.ceil(PROPERTY_RUNS / 5) },
      );
    });
  }
});

describe('gcf (upstream @blackwell-systems/gcf): what it keeps, and that verify catches what it loses', () => {
  it(`with identifier keys it keeps every value, possibly not key order (${PROPERTY_RUNS} values)`, async () => {
    const gcf = await loadFormat('gcf');
    fc.assert(
      fc.property(jsonValueLike(identifierKey), (value) => {
        const back = gcf.decode(gcf.encode(value));
        // Same values regardless of key order (isDeepStrictEqual ignores key order)...
        assert.ok(isDeepStrictEqual(back, JSON.parse(JSON.stringify(value))), `gcf lost a value in ${JSON.stringify(value)}`);
        // ...and when the order did change, verify says so instead of calling it lossless.
        const check = verifyRoundTrip(gcf, value);
        assert.equal(check.lossless, exact(back, value));
        if (!check.lossless) assert.equal(check.difference?.kind, 'key-order', check.reason);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it(`verify never reports a lossy result as lossless, on any JSON value (${PROPERTY_RUNS} values)`, async () => {
    const gcf = await loadFormat('gcf');
    fc.assert(
      fc.property(anyJson, (value) => {
        const check = verifyRoundTrip(gcf, value);
        let back: JsonValue | undefined;
        let threw = false;
        try {
          back = gcf.decode(gcf.encode(value));
        } catch {
          threw = true;
        }
        // An independent oracle: same keys in the same order, same values, everywhere.
        const truth = !threw && sameOrdered(back, JSON.parse(JSON.stringify(value)));
        assert.equal(check.lossless, truth, `verify said ${check.lossless} for ${JSON.stringify(value)}`);
        if (!check.lossless) assert.ok(check.reason && !check.reason.includes('\n'));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});

function sameOrdered(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b)) {
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => sameOrdered(x, b[i]));
  }
  if (a !== null && b !== null && typeof a === 'object' && typeof b === 'object') {
    const ka = Object.keys(a);
    const kb = Object.keys(b);
    return ka.length === kb.length && ka.every((k, i) => k === kb[i] && sameOrdered((a as never)[k], (b as never)[k]));
  }
  return Object.is(a, b) || (a === 0 && b === 0);
}
