import type { FormatName } from '../formats/types.js';
import type { BenchmarkRow } from './schema.js';

/** Time to encode (or decode) a set of rows once: sums of per-call medians and of the runs' extremes. */
export interface SpeedFigure {
  median_ms: number;
  /** [sum of the fastest runs, sum of the slowest]: where the sum of medians could have landed. */
  spread_ms: [number, number];
  /** median_ms over json-compact's on the same datasets and levels (1 = as fast); null without json-compact rows. */
  vs_json_compact: number | null;
}

export interface FormatSpeed {
  format: FormatName;
  encode: SpeedFigure;
  decode: SpeedFigure;
}

/**
 * Cells timed fewer times than this have no spread worth the name (one run's spread has no width, a
 * median of two is a mean): they rank nothing, in a run's speed table or between two runs.
 */
export const FEW_RUNS = 3;

/** The reference of speed ratios: JSON.stringify / JSON.parse, measured in the same run. */
export const SPEED_REFERENCE: FormatName = 'json-compact';

/**
 * Encode and decode time per format over the given rows. Timings are per encoding, repeated on every
 * tokenizer's row, so only one tokenizer's rows are read. Ratios use json-compact's rows of the same
 * datasets and levels, so a narrowed or partly missing format still compares like with like.
 */
export function speedByFormat(rows: readonly BenchmarkRow[], formats: readonly FormatName[], tokenizer: string): FormatSpeed[] {
  const own = rows.filter((r) => r.tokenizer === tokenizer);
  const reference = new Map(own.filter((r) => r.format === SPEED_REFERENCE).map((r) => [placeOf(r), r]));
  return formats.flatMap((format) => {
    const mine = own.filter((r) => r.format === format);
    if (mine.length === 0) return [];
    const refs = mine.map((r) => reference.get(placeOf(r)));
    const complete = refs.every((r) => r !== undefined);
    const figure = (op: 'encode' | 'decode'): SpeedFigure => {
      const median = sum(mine.map((r) => r[`${op}_ms`]));
      const ref = complete ? sum(refs.map((r) => r![`${op}_ms`])) : 0;
      return {
        median_ms: round(median),
        spread_ms: [round(sum(mine.map((r) => r[`${op}_spread_ms`][0]))), round(sum(mine.map((r) => r[`${op}_spread_ms`][1])))],
        vs_json_compact: complete && ref > 0 ? Math.round((median / ref) * 1000) / 1000 : null,
      };
    };
    return [{ format, encode: figure('encode'), decode: figure('decode') }];
  });
}

function placeOf(r: BenchmarkRow): string {
  return [r.provider, r.project, r.dataset, r.label, r.level].join('\u0000');
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

function round(ms: number): number {
  return Math.round(ms * 10_000) / 10_000;
}
