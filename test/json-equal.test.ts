import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { jsonEqual, sameJson } from '../src/json/equal.js';
import { judgeDecoded } from '../src/formats/verify.js';
import { jsonPretty } from '../src/formats/json.js';
import { anyJson, PROPERTY_RUNS } from './helpers/arbitraries.js';

// The round-trip check's walk (sameJson) answers "certainly equal" without serializing; it must
// never say so of values whose JSON differs, and must recognise a faithful copy.

/** A copy made the way a decoder makes one: parsed back from text. */
const reparsed = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

describe('sameJson: the allocation-free equality of the round-trip check', () => {
  it('a value and its decoded copy are the same; the serializations agree', () => {
    fc.assert(
      fc.property(anyJson, (v) => {
        assert.equal(sameJson(v, reparsed(v)), true);
        assert.equal(jsonEqual(v, reparsed(v)), true);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('never calls two values the same when their JSON differs', () => {
    fc.assert(
      fc.property(anyJson, anyJson, (a, b) => {
        if (sameJson(a, b)) assert.equal(JSON.stringify(a), JSON.stringify(b));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('key order, a lost key, a changed type and a changed number are differences; -0 and 0 are not', () => {
    assert.equal(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 }), false);
    assert.equal(sameJson({ a: 1, b: 2 }, { a: 1 }), false);
    assert.equal(sameJson([1, '2'], [1, 2]), false);
    assert.equal(sameJson([1.5], [1.25]), false);
    assert.equal(sameJson({ n: -0 }, { n: 0 }), true);
    assert.equal(sameJson(new Map(), {}), false, 'not a plain object: left to the serializing check');
  });

  it('the round-trip verdict still names the first difference when the walk finds one', () => {
    assert.deepEqual(judgeDecoded(jsonPretty, { a: [1, 2] }, { a: [1, 2] }), { lossless: true });
    const lost = judgeDecoded(jsonPretty, { a: 1, b: 2 }, { b: 2, a: 1 });
    assert.equal(lost.lossless, false);
    assert.match(lost.reason!, /^json key order changed at \$/);
    // NaN is not equal to itself, but both serialize as null: the serializing check decides.
    assert.deepEqual(judgeDecoded(jsonPretty, [Number.NaN] as never, [Number.NaN] as never), { lossless: true });
  });
});
