import type { Timing } from './schema.js';

/** Shortest timed batch: below this, clock resolution and call overhead dominate. */
const MIN_BATCH_MS = 0.25;

/**
 * Time a synchronous function: one warm-up batch (which also picks the repetitions per batch so a
 * batch lasts at least MIN_BATCH_MS), then `runs` timed batches; per-call milliseconds.
 * Wall-clock of synchronous single-thread work, which is its CPU time unless the OS preempts it.
 */
export function timeSync(fn: () => unknown, runs: number): Timing {
  const first = once(fn, 1);
  const reps = first >= MIN_BATCH_MS ? 1 : Math.min(1 << 16, Math.ceil(MIN_BATCH_MS / Math.max(first, 0.0005)));
  if (reps > 1) once(fn, reps); // warm-up at the batch size the timed runs use
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) samples.push(once(fn, reps) / reps);
  return summarize(samples);
}

/** How the benchmark times each encode and decode (`settings.timing` in a result). */
export interface TimingPlan {
  /** Most timed runs per cell (`--runs`); exactly this many when `budgetMs` is 0. */
  maxRuns: number;
  /** Timed runs stop once they have taken this long (`--time-budget`); 0: no budget. */
  budgetMs: number;
}

/** Shortest batch of the adaptive timer: long enough for the clock, short enough for 3,720 cells. */
export const ADAPTIVE_MIN_BATCH_MS = 0.02;

/**
 * Adaptive timing, as hyperfine and benchmark libraries do it: a warm-up, then as many timed runs
 * as fit in the cell's time budget, at least one and at most `maxRuns` (and three rather than two,
 * so that the median is a middle run); the median, the spread and the number of runs are reported.
 * Quick calls are batched (each run lasts ADAPTIVE_MIN_BATCH_MS or more) so the clock can see
 * them; slow ones get few runs, so slow decoders do not dominate a benchmark while fast codecs
 * still get `maxRuns` samples.
 *
 * The runs that fit are counted at the pace of the fastest run seen (the first call included): a
 * run the OS preempted or a collection paused does not cut a quick call's runs short.
 *
 * `firstMs` is the time of a call the caller already made (the encode that produced the text, the
 * decode that checked it). It sizes the batches, and it is the warm-up of a call that needs no
 * batching. A call that alone took the whole budget is not run again: that call is the one timed
 * run (the benchmark warms every codec up before its first dataset, so it is not cold code).
 * `now` is the clock (tests plant one).
 */
export function timeAdaptive(
  fn: () => unknown,
  plan: TimingPlan,
  firstMs?: number,
  now: () => number = performance.now.bind(performance),
): Timing {
  const batch = (reps: number) => {
    const start = now();
    for (let i = 0; i < reps; i++) fn();
    return now() - start;
  };
  if (firstMs !== undefined && plan.budgetMs > 0 && firstMs >= plan.budgetMs) return summarize([firstMs]);
  // Either way the first call is the warm-up of a call that needs no batching.
  const first = firstMs ?? batch(1);
  let reps = 1;
  let fastest = first;
  if (first < ADAPTIVE_MIN_BATCH_MS) {
    reps = repsFor(first);
    // The first call was cold; re-size from the warm-up batch when it shows calls are much quicker.
    const warm = batch(reps);
    if (warm < ADAPTIVE_MIN_BATCH_MS / 2) reps = repsFor(warm / reps);
    fastest = warm / reps;
  }
  // Runs that fit in the budget at the fastest pace seen, one at least; a median of two is a mean, so three.
  const planned = () => {
    if (plan.budgetMs <= 0) return plan.maxRuns;
    const fit = Math.floor(plan.budgetMs / (reps * fastest));
    return Math.min(plan.maxRuns, Math.max(1, fit === 2 ? 3 : fit));
  };
  const samples: number[] = [];
  do {
    const perCall = batch(reps) / reps;
    samples.push(perCall);
    fastest = Math.min(fastest, perCall);
  } while (samples.length < planned());
  return summarize(samples);
}

function repsFor(perCallMs: number): number {
  return Math.min(1 << 16, Math.ceil(ADAPTIVE_MIN_BATCH_MS / Math.max(perCallMs, 0.0002)));
}

function summarize(samples: number[]): Timing {
  samples.sort((a, b) => a - b);
  const mid = samples.length >> 1;
  const median = samples.length % 2 ? samples[mid]! : (samples[mid - 1]! + samples[mid]!) / 2;
  return { median_ms: round(median), min_ms: round(samples[0]!), max_ms: round(samples[samples.length - 1]!), runs: samples.length };
}

function once(fn: () => unknown, reps: number): number {
  const start = performance.now();
  for (let i = 0; i < reps; i++) fn();
  return performance.now() - start;
}

function round(ms: number): number {
  return Math.round(ms * 10_000) / 10_000;
}
