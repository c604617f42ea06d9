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
  samples.sort((a, b) => a - b);
  const mid = samples.length >> 1;
  const median = samples.length % 2 ? samples[mid]! : (samples[mid - 1]! + samples[mid]!) / 2;
  return { median_ms: round(median), min_ms: round(samples[0]!), max_ms: round(samples[samples.length - 1]!), runs };
}

function once(fn: () => unknown, reps: number): number {
  const start = performance.now();
  for (let i = 0; i < reps; i++) fn();
  return performance.now() - start;
}

function round(ms: number): number {
  return Math.round(ms * 10_000) / 10_000;
}
