import { FEW_RUNS, speedByFormat, type FormatSpeed, type SpeedFigure } from '../benchmark/speed.js';
import type { BenchmarkResult, BenchmarkRow, Spread } from '../benchmark/schema.js';
import type { FormatName } from '../formats/types.js';
import type { TokenizerName } from '../tokens/types.js';

export type TimingFlag = 'slower' | 'faster' | null;

export interface TimingChange {
  format: FormatName;
  op: 'encode' | 'decode';
  base: SpeedFigure;
  head: SpeedFigure;
  /** head / base - 1 of the summed medians, three decimals. */
  change: number | null;
  /** Timed runs per cell in each run: [fewest, most]. */
  runs: { base: [number, number]; head: [number, number] };
  /**
   * The format's rows; those whose head spread lies wholly above (slower) or below (faster) the
   * base's, both timed at least FEW_RUNS times; and those timed fewer times in either run, which
   * are neither (one run's spread has no width, so it would look exact).
   */
  rows: number;
  rows_slower: number;
  rows_faster: number;
  rows_few_runs: number;
  /** Share of the format's time (weighted as for the flag) in rows timed too few times; three decimals. */
  few_runs_share: number;
  /** Most of the time is in rows timed too few times: the runs cannot rank this timing, so it has no flag. */
  too_few_runs: boolean;
  /**
   * Set only when the rows holding most of the format's time (each weighted by the larger of its two
   * medians) were timed at least FEW_RUNS times in both runs and moved outside both runs' spreads the
   * same way, and the summed medians moved that way too: a change inside the spreads is noise, a
   * count of rows would let many tiny rows outvote the few that take the time, and a sum of spreads
   * is widened by any one outlier run.
   */
  flag: TimingFlag;
}

/** Informational: timing never fails the gate (two runs, often two machines). */
export interface TimingComparison {
  /** Whose rows the timings are read from (they repeat on every tokenizer's row); null when none is shared. */
  tokenizer: TokenizerName | null;
  /** Per format, over the datasets and levels both runs have. */
  per_format: TimingChange[];
  rows_compared: number;
  /** Rows whose encode or decode spreads do not overlap between the runs (both timed at least min_runs times). */
  rows_slower: number;
  rows_faster: number;
  /** Rows whose encode or decode was timed fewer than min_runs times in either run: never slower or faster. */
  rows_few_runs: number;
  /** The fewest timed runs a cell needs in both runs before its spread can rank it (FEW_RUNS). */
  min_runs: number;
}

export function compareTiming(
  pairs: readonly { base: BenchmarkRow; head: BenchmarkRow }[],
  base: BenchmarkResult,
  head: BenchmarkResult,
): TimingComparison {
  const shared = head.tokenizers.map((t) => t.name).find((n) => base.tokenizers.some((t) => t.name === n)) ?? null;
  const mine = pairs.filter((p) => p.base.tokenizer === shared);
  const formats = [...new Set(mine.map((p) => p.head.format))];
  const before = new Map(
    speedByFormat(
      mine.map((p) => p.base),
      formats,
      shared ?? '',
    ).map((s) => [s.format, s]),
  );
  const after = speedByFormat(
    mine.map((p) => p.head),
    formats,
    shared ?? '',
  );
  const judge = rowJudge(base, head);
  const perFormat: TimingChange[] = [];
  for (const a of after) {
    const b = before.get(a.format)!;
    const rows = mine.filter((p) => p.head.format === a.format);
    for (const op of ['encode', 'decode'] as const) perFormat.push(timingChange(rows, op, { base: b, head: a }, judge));
  }
  let slower = 0;
  let faster = 0;
  let fewRuns = 0;
  for (const p of mine) {
    const flags = (['encode', 'decode'] as const).map((op) => judge.rowFlag(p, op));
    if (flags.includes('slower')) slower++;
    if (flags.includes('faster')) faster++;
    if ((['encode', 'decode'] as const).some((op) => !judge.enough(p, op))) fewRuns++;
  }
  return {
    tokenizer: shared,
    per_format: perFormat,
    rows_compared: mine.length,
    rows_slower: slower,
    rows_faster: faster,
    rows_few_runs: fewRuns,
    min_runs: FEW_RUNS,
  };
}

interface Pair {
  base: BenchmarkRow;
  head: BenchmarkRow;
}

interface RowJudge {
  base: BenchmarkResult;
  head: BenchmarkResult;
  /** Both runs timed the row's operation at least FEW_RUNS times. */
  enough(p: Pair, op: Op): boolean;
  /** Whether the row's operation moved outside both spreads; null when it was timed too few times. */
  rowFlag(p: Pair, op: Op): TimingFlag;
}

function rowJudge(base: BenchmarkResult, head: BenchmarkResult): RowJudge {
  const enough = (p: Pair, op: Op) => runsOf(p.base, op, base) >= FEW_RUNS && runsOf(p.head, op, head) >= FEW_RUNS;
  const rowFlag = (p: Pair, op: Op): TimingFlag => (enough(p, op) ? flagOf(p.base[`${op}_spread_ms`], p.head[`${op}_spread_ms`]) : null);
  return { base, head, enough, rowFlag };
}

/** One format's encode or decode over its rows: the summed medians' change, row counts, and the flag (TimingChange). */
function timingChange(rows: readonly Pair[], op: Op, speed: { base: FormatSpeed; head: FormatSpeed }, judge: RowJudge): TimingChange {
  const { base: b, head: a } = speed;
  const flags = rows.map((p) => judge.rowFlag(p, op));
  const slower = flags.filter((f) => f === 'slower').length;
  const faster = flags.filter((f) => f === 'faster').length;
  const few = rows.map((p) => !judge.enough(p, op));
  // A row weighs what it takes in the slower of the two runs: a row whose time grew tenfold
  // weighs its new time, so many rows a little faster cannot outvote it.
  const rowWeight = (p: Pair) => Math.max(p.base[`${op}_ms`], p.head[`${op}_ms`]);
  const weight = (flag: TimingFlag) => rows.reduce((w, p, i) => w + (flags[i] === flag ? rowWeight(p) : 0), 0);
  const total = rows.reduce((w, p) => w + rowWeight(p), 0);
  const fewShare = total > 0 ? rows.reduce((w, p, i) => w + (few[i] ? rowWeight(p) : 0), 0) / total : 0;
  const change = b[op].median_ms > 0 ? Math.round((a[op].median_ms / b[op].median_ms - 1) * 1000) / 1000 : null;
  // The flag says what happened to the time: never `faster` for a total that grew, nor `slower` for one that shrank.
  const flag: TimingFlag =
    total > 0 && weight('slower') * 2 > total && (change === null || change > 0)
      ? 'slower'
      : total > 0 && weight('faster') * 2 > total && change !== null && change < 0
        ? 'faster'
        : null;
  return {
    format: a.format,
    op,
    base: b[op],
    head: a[op],
    change,
    runs: {
      base: runRange(
        rows.map((p) => p.base),
        op,
        judge.base,
      ),
      head: runRange(
        rows.map((p) => p.head),
        op,
        judge.head,
      ),
    },
    rows: rows.length,
    rows_slower: slower,
    rows_faster: faster,
    rows_few_runs: few.filter(Boolean).length,
    few_runs_share: Math.round(fewShare * 1000) / 1000,
    too_few_runs: fewShare > 0.5,
    flag,
  };
}

type Op = 'encode' | 'decode';

/**
 * Timed runs of a row's operation: its own count, or in a result from before adaptive timing (no
 * counts), the fixed --runs every cell had.
 */
function runsOf(row: BenchmarkRow, op: Op, result: BenchmarkResult): number {
  return row[`${op}_runs`] ?? result.settings.runs;
}

function runRange(rows: readonly BenchmarkRow[], op: Op, result: BenchmarkResult): [number, number] {
  const runs = rows.map((r) => runsOf(r, op, result));
  return runs.length ? [Math.min(...runs), Math.max(...runs)] : [0, 0];
}

/** Slower when the head's fastest run is slower than the base's slowest; faster the other way round. */
export function flagOf(base: Spread, head: Spread): TimingFlag {
  if (head[0] > base[1]) return 'slower';
  if (head[1] < base[0]) return 'faster';
  return null;
}
