import type { BenchmarkResult, BenchmarkRow } from '../benchmark/schema.js';
import { SPEED_REFERENCE, type FormatSpeed, type SpeedFigure } from '../benchmark/speed.js';
import { ms, type BenchmarkSummary } from './benchmark-summary.js';
import { int } from '../text/words.js';

/**
 * Speed as hyperfine reports it: every figure with its range (`806 (803…1071)` ms), every ratio
 * with the range its figures allow (`×5.31 (2.12…7.05)`), and how many timed runs stand behind
 * each cell, with a warning when the runs are too few or the ranges too wide to rank formats.
 */

/** Cells timed fewer times than this have no spread worth the name (a median of two is a mean). */
const FEW_RUNS = 3;

export type Op = 'encode' | 'decode';

export interface SpeedRow {
  format: string;
  encode: string;
  encodeRatio: string;
  decode: string;
  decodeRatio: string;
  /** `5` or `1-5`, encode then decode. */
  runs: string;
}

/** `806 (803…1071)` milliseconds: the sum of per-cell medians and of the cells' fastest and slowest runs. */
export function figureText(f: SpeedFigure): string {
  return `${ms(f.median_ms)} (${ms(f.spread_ms[0])}…${ms(f.spread_ms[1])})`;
}

/** The ratio to the reference and its range: fastest over the reference's slowest, slowest over its fastest. */
export function ratioText(f: SpeedFigure, ref: SpeedFigure | undefined): string {
  if (f.vs_json_compact === null) return '';
  if (!ref || ref.spread_ms[0] <= 0 || ref.spread_ms[1] <= 0) return `×${times(f.vs_json_compact)}`;
  const lo = f.spread_ms[0] / ref.spread_ms[1];
  const hi = f.spread_ms[1] / ref.spread_ms[0];
  return `×${times(f.vs_json_compact)} (${times(lo)}…${times(hi)})`;
}

/** A ratio with the digits that mean something at its size: 0.06, 1.73, 25.9, 227. */
function times(r: number): string {
  return r >= 100 ? r.toFixed(0) : r >= 10 ? r.toFixed(1) : r.toFixed(2);
}

/** The rows one tokenizer's timings are read from (timings repeat on every tokenizer's row). */
function timedRows(result: BenchmarkResult, s: BenchmarkSummary, format?: string): BenchmarkRow[] {
  return result.rows.filter((r) => r.tokenizer === s.primary && (format === undefined || r.format === format));
}

/** Runs per cell of one format and operation: `5`, `1-5`, or `?` in results from before adaptive timing (speedWarnings says how many were too few). */
function runsText(rows: BenchmarkRow[], op: Op, fixedRuns: number | undefined): string {
  const runs = rows.map((r) => r[`${op}_runs`]);
  if (runs.some((n) => n === undefined)) return fixedRuns === undefined ? '?' : String(fixedRuns);
  const counts = runs as number[];
  const lo = Math.min(...counts);
  const hi = Math.max(...counts);
  return lo === hi ? String(lo) : `${lo}-${hi}`;
}

export function speedRows(result: BenchmarkResult, s: BenchmarkSummary): SpeedRow[] {
  const ref = s.speed.find((f) => f.format === SPEED_REFERENCE);
  const fixed = fixedRuns(result);
  return s.speed.map((f) => {
    const rows = timedRows(result, s, f.format);
    return {
      format: f.format,
      encode: figureText(f.encode),
      encodeRatio: ratioText(f.encode, ref?.encode),
      decode: figureText(f.decode),
      decodeRatio: ratioText(f.decode, ref?.decode),
      runs: `${runsText(rows, 'encode', fixed)}; ${runsText(rows, 'decode', fixed)}`,
    };
  });
}

/** Results written before adaptive timing ran exactly `runs` runs per cell. */
function fixedRuns(result: BenchmarkResult): number | undefined {
  return !result.settings.timing || result.settings.timing.mode === 'fixed' ? result.settings.runs : undefined;
}

/** How the cells were timed, for the heading of the speed table. */
export function timingHeading(result: BenchmarkResult): string {
  const t = result.settings.timing;
  const how =
    t && t.mode === 'adaptive'
      ? `each cell timed adaptively, up to ${int(t.max_runs)} runs within ${int(t.budget_ms)} ms (runs: the fewest-most per cell, encode; decode)`
      : `each cell timed ${int(result.settings.runs)} times`;
  return `Speed: time to encode and decode every dataset at every level once: the sum of per-cell medians (the sums of the cells' fastest … slowest runs); ×N = time / ${SPEED_REFERENCE}'s in this run (the range its spreads allow); ${how}`;
}

/**
 * When the figures cannot rank formats: most of an operation's time in cells timed once or twice
 * (their spread is unknown, and repeated runs of the same corpus have differed several times over),
 * or two formats next to each other in speed whose ranges overlap.
 */
export function speedWarnings(result: BenchmarkResult, s: BenchmarkSummary, name: (format: string) => string): string[] {
  const out: string[] = [];
  const rows = timedRows(result, s);
  for (const op of ['encode', 'decode'] as const) {
    const total = rows.reduce((a, r) => a + r[`${op}_ms`], 0);
    const few = rows.filter((r) => r[`${op}_runs`] !== undefined && r[`${op}_runs`]! < FEW_RUNS);
    const share = total > 0 ? few.reduce((a, r) => a + r[`${op}_ms`], 0) / total : 0;
    if (share > 0.5)
      out.push(
        `${Math.round(share * 100)}% of the ${op} time is in ${int(few.length)} cells timed fewer than ${FEW_RUNS} times, whose spread is unknown: too few runs to rank formats by ${op} speed (a larger --time-budget gives more runs).`,
      );
    const overlaps = overlapping(s.speed, op);
    if (overlaps.length)
      out.push(
        `${op}: ${overlaps.map(([a, b]) => `${name(a)} and ${name(b)}`).join(', ')} are within each other's range: too close to rank on this run.`,
      );
  }
  return out;
}

/** Formats next to each other when sorted by median whose ranges overlap. */
function overlapping(speed: FormatSpeed[], op: Op): [string, string][] {
  const sorted = [...speed].sort((a, b) => a[op].median_ms - b[op].median_ms);
  const out: [string, string][] = [];
  for (let i = 1; i < sorted.length; i++) {
    const a = sorted[i - 1]!;
    const b = sorted[i]!;
    if (b[op].spread_ms[0] <= a[op].spread_ms[1]) out.push([a.format, b.format]);
  }
  return out;
}
