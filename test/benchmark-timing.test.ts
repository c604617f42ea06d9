import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { warmUp } from '../src/benchmark/measure.js';
import { ADAPTIVE_MIN_BATCH_MS, timeAdaptive } from '../src/benchmark/timing.js';
import { loadFormat } from '../src/formats/registry.js';
import type { Format } from '../src/formats/types.js';

// How many runs adaptive timing makes, on a planted clock: each call of the timed function moves
// it by `costMs`, so the counts are exact and the test never depends on the machine.
function planted(costMs: number) {
  let now = 0;
  let calls = 0;
  return {
    fn: () => {
      now += costMs;
      calls++;
    },
    now: () => now,
    calls: () => calls,
  };
}

describe('adaptive timing (settings.timing)', () => {
  it('a quick call: batched to last the shortest batch, and the most runs', () => {
    const c = planted(0.001);
    const t = timeAdaptive(c.fn, { maxRuns: 5, budgetMs: 0.5 }, 0.001, c.now);
    assert.equal(t.runs, 5);
    assert.equal(t.median_ms, 0.001);
    // One warm-up batch and five timed batches, each at least ADAPTIVE_MIN_BATCH_MS long.
    const batch = Math.ceil(ADAPTIVE_MIN_BATCH_MS / 0.001);
    assert.equal(c.calls(), 6 * batch);
  });

  it('a call that alone took the budget: that call is the one timed run, whatever --runs says', () => {
    const c = planted(40);
    const t = timeAdaptive(c.fn, { maxRuns: 5, budgetMs: 0.5 }, 40, c.now);
    assert.deepEqual(t, { median_ms: 40, min_ms: 40, max_ms: 40, runs: 1 });
    assert.equal(c.calls(), 0, 'not called again');
  });

  it('a slow call with no first call of the caller: one warm-up, then one timed run', () => {
    const c = planted(40);
    const t = timeAdaptive(c.fn, { maxRuns: 5, budgetMs: 0.5 }, undefined, c.now);
    assert.deepEqual(t, { median_ms: 40, min_ms: 40, max_ms: 40, runs: 1 });
    assert.equal(c.calls(), 2);
  });

  it('between the two: the runs that fit in the budget, and three rather than two', () => {
    const counted = (costMs: number) => {
      const c = planted(costMs);
      return [timeAdaptive(c.fn, { maxRuns: 5, budgetMs: 1 }, costMs, c.now).runs, c.calls()];
    };
    assert.deepEqual(counted(0.3), [3, 3]);
    assert.deepEqual(counted(0.45), [3, 3], 'two fit: three runs, so the median is a middle run');
    assert.deepEqual(counted(0.6), [1, 1]);
    assert.deepEqual(counted(0.15), [5, 5]);
    assert.deepEqual(counted(2), [1, 0], 'the first call is the timed run');
  });

  it("a run the machine interrupted does not end a quick call's runs: the budget goes at the fastest pace", () => {
    let now = 0;
    let calls = 0;
    // Calls take 0.1 ms, except the first timed one, which a preemption stretched to 30 ms.
    const fn = () => {
      calls++;
      now += calls === 1 ? 30 : 0.1;
    };
    const t = timeAdaptive(fn, { maxRuns: 5, budgetMs: 0.5 }, 0.1, () => now);
    assert.equal(t.runs, 5);
    assert.equal(t.median_ms, 0.1);
    assert.equal(t.max_ms, 30);
  });

  it('budget 0: exactly --runs runs (fixed timing), and without a first call, one of its own as warm-up', () => {
    const c = planted(40);
    const t = timeAdaptive(c.fn, { maxRuns: 4, budgetMs: 0 }, undefined, c.now);
    assert.equal(t.runs, 4);
    assert.equal(c.calls(), 5);
  });

  it('a cold first call does not leave the batches too short: they are re-sized from the warm-up', () => {
    // The producing call took 0.01 ms (cold); warm calls take 0.0005 ms.
    const c = planted(0.0005);
    const t = timeAdaptive(c.fn, { maxRuns: 3, budgetMs: 0.5 }, 0.01, c.now);
    assert.equal(t.runs, 3);
    assert.equal(t.median_ms, 0.0005);
    const timedCalls = c.calls() - Math.ceil(ADAPTIVE_MIN_BATCH_MS / 0.01);
    assert.ok((timedCalls / 3) * 0.0005 >= ADAPTIVE_MIN_BATCH_MS, `batches of ${timedCalls / 3} calls`);
  });
});

describe('codec warm-up (benchmark/measure.ts)', () => {
  it('runs a codec until it is warm once per process: a second run finds it warm', async () => {
    const json = await loadFormat('json-compact');
    let rounds = 0;
    // A codec of its own name: the real ones may already be warm from another file of this process.
    const counted: Format = {
      ...json,
      name: 'warm-up-probe' as Format['name'],
      encode: (v) => (rounds++, json.encode(v)),
    };
    warmUp([counted]);
    assert.ok(rounds >= 20, `${rounds} warm-up rounds`);
    const first = rounds;
    warmUp([counted]);
    assert.equal(rounds, first);
  });
});
