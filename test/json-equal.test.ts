import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { firstDifference, jsonEqual } from '../src/json/equal.js';
import { judgeDecoded } from '../src/formats/verify.js';
import { jsonPretty } from '../src/formats/json.js';
import { anyJson, PROPERTY_RUNS } from './helpers/arbitraries.js';

// The benchmark's round-trip check asks the plain equality walk first and the path-building walk
// only when that finds a difference: the two must agree on every pair of values, or the quick
// answer would call a lossy cell lossless (or the reverse).

/** A copy made the way a decoder makes one: parsed back from text. */
const reparsed = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe('the round-trip verdict: quick equality first, the named difference after', () => {
  it('jsonEqual and firstDifference agree on related and unrelated values', () => {
    fc.assert(
      fc.property(anyJson, anyJson, (a, b) => {
        for (const [x, y] of [
          [a, b],
          [a, reparsed(a)],
        ]) {
          assert.equal(jsonEqual(x, y), firstDifference(x, y) === null);
        }
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('judgeDecoded: lossless for a faithful copy, the first difference named otherwise', () => {
    fc.assert(
      fc.property(anyJson, (v) => {
        assert.deepEqual(judgeDecoded(jsonPretty, v, reparsed(v) as never), { lossless: true });
      }),
      { numRuns: PROPERTY_RUNS },
    );
    assert.deepEqual(judgeDecoded(jsonPretty, { a: [1, 2] }, { a: [1, 2] }), { lossless: true });
    const reordered = judgeDecoded(jsonPretty, { a: 1, b: 2 }, { b: 2, a: 1 });
    assert.equal(reordered.lossless, false);
    assert.match(reordered.reason!, /^json key order changed at \$/);
    const changed = judgeDecoded(jsonPretty, [{ n: 1.5 }], [{ n: 1.25 }]);
    assert.equal(changed.difference?.path, '$[0].n');
    assert.deepEqual(judgeDecoded(jsonPretty, { n: -0 }, { n: 0 }), { lossless: true });
  });
});
