import assert from 'node:assert/strict';
import type { BenchmarkResult, BenchmarkRow } from '../../src/benchmark/schema.js';

/**
 * What a merged result may hold that the whole run does not, with the reason. Every other section
 * (those of today and any a later result gains) must be equal.
 */
export const MERGE_ONLY: Record<string, string> = {
  merged_from: 'provenance: only a merged result names the parts it was combined from',
};

/** A row's fields that differ between two runs of the same data, with the reason. */
export const TIMED_ROW_FIELDS: Record<string, string> = {
  encode_ms: 'a measured time',
  decode_ms: 'a measured time',
  encode_spread_ms: 'measured times',
  decode_spread_ms: 'measured times',
  encode_runs: 'adaptive timing runs as many times as fit its budget on a busy or quiet machine',
  decode_runs: 'adaptive timing runs as many times as fit its budget on a busy or quiet machine',
};

export function untimed(r: BenchmarkRow): Partial<BenchmarkRow> {
  return Object.fromEntries(Object.entries(r).filter(([k]) => !(k in TIMED_ROW_FIELDS)));
}

/** Every section of `merged` equals the whole run's, rows without their timings. */
export function assertSameSections(merged: BenchmarkResult, whole: BenchmarkResult): void {
  const m = merged as unknown as Record<string, unknown>;
  const w = whole as unknown as Record<string, unknown>;
  const keys = [...new Set([...Object.keys(w), ...Object.keys(m)])].filter((k) => !(k in MERGE_ONLY));
  for (const key of keys) {
    let a = m[key];
    let b = w[key];
    if (key === 'rows') {
      a = merged.rows.map(untimed);
      b = whole.rows.map(untimed);
    }
    assert.deepEqual(a, b, `section "${key}" of the merged result differs from the whole run's`);
  }
}
