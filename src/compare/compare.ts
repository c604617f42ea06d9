import { cellKey, type BenchmarkResult, type BenchmarkRow, type BenchmarkSourceInfo, type UnmeasuredCell } from '../benchmark/schema.js';
import type { FormatName } from '../formats/types.js';
import { roundFraction } from '../metadata/format-metadata.js';
import type { TokenizerName } from '../tokens/types.js';
import type { Level } from '../trim/levels.js';
import { compareTiming, type TimingComparison } from './timing.js';
import { groupBy } from '../group-by.js';

export const COMPARE_SCHEMA = 'devboy.compare/1';

/** Largest tolerated growth of a token count, as a fraction: 0.005 = 0.5%. */
export const DEFAULT_MAX_REGRESSION = 0.005;

export interface NamedResult {
  /** How the report names the run: the file it was read from, or `this run`. */
  file: string;
  result: BenchmarkResult;
}

/** What the report says about each side, so a reader knows what was compared with what. */
export interface RunInfo {
  file: string;
  devboy: string;
  source: BenchmarkSourceInfo;
  /** Results it was merged from (devboy merge), when it was. */
  merged_parts?: number;
  datasets: number;
  rows: number;
  runs: number;
  budget: number;
  tokenizers: TokenizerName[];
}

/** A dataset at a level in a format: one benchmark row per tokenizer. Reports show it once. */
export interface EntryId {
  provider: BenchmarkRow['provider'];
  project: string;
  dataset: BenchmarkRow['dataset'];
  label: string;
  level: Level;
  format: FormatName;
}

export interface Change {
  base: number;
  head: number;
  /** head / base - 1, six decimals; null when base is 0 and head is not. */
  change: number | null;
}

/** An entry's tokens before and after under every tokenizer both runs have, side by side. */
export interface EntryChange extends EntryId {
  tokens: Partial<Record<TokenizerName, Change>>;
}

export interface RoundTripChange extends EntryId {
  /**
   * The tokenizers whose rows lost (or regained) the round trip. A whole list round-trips or not
   * whatever the tokenizer, but its pages split where each tokenizer's counts put them, so one
   * tokenizer's row can lose it alone.
   */
  tokenizers: TokenizerName[];
  /** The head's first difference (lost), or the base's (regained), of the first of those rows. */
  reason: string;
}

export interface EntryRows extends EntryId {
  tokenizers: TokenizerName[];
  /** A base row the head lacks because the head could not measure it: `not measured in the head: <its reason>`. */
  reason?: string;
}

/** One format at one level under one tokenizer, summed over the rows both runs have. */
export interface CellSummary {
  format: FormatName;
  level: Level;
  tokenizer: TokenizerName;
  compared: number;
  tokens: Change;
  pages: { base: number; head: number };
  /** Rows whose tokens grew (regressions) or shrank (improvements) beyond the tolerance. */
  regressions: number;
  improvements: number;
  lost_round_trips: number;
  gained_round_trips: number;
  /** Rows of the base missing from the head, and rows only the head has. */
  removed: number;
  added: number;
}

/** `devboy compare --json`, and `regression` in a benchmark result run with --baseline (docs/ci.md). */
export interface Comparison {
  schema: typeof COMPARE_SCHEMA;
  base: RunInfo;
  head: RunInfo;
  max_regression: number;
  /** False on a token regression beyond max_regression, a lost round trip, a removed row, or no row in common. */
  passed: boolean;
  counts: {
    /** Benchmark rows (one per tokenizer) present in both runs. */
    rows_compared: number;
    /** Entries (dataset x level x format) with a row in both runs. */
    entries_compared: number;
    /** The rest count entries (dataset x level x format), each once whatever its tokenizers. */
    regressions: number;
    improvements: number;
    lost_round_trips: number;
    gained_round_trips: number;
    removed: number;
    added: number;
    /** Base rows outside the head's scope (its sources, kinds, levels, formats, tokenizers): not compared. */
    out_of_scope: number;
  };
  /** Differences of versions and settings that a reader needs to weigh the figures. */
  notes: string[];
  summary: CellSummary[];
  regressions: EntryChange[];
  improvements: EntryChange[];
  lost_round_trips: RoundTripChange[];
  gained_round_trips: RoundTripChange[];
  removed: EntryRows[];
  added: EntryRows[];
  /** The head's cells a format could not write (its `unmeasured_cells`): compared with nothing, each with why. */
  not_measured: UnmeasuredCell[];
  timing: TimingComparison;
}

/**
 * Match two saved runs row by row (docs/benchmark-schema.md: identity) and say what changed. Only
 * base rows inside the head's scope are compared, so a narrowed run (one provider or project, some
 * formats or levels) can be gated against a full baseline; a base row inside it that the head lacks
 * is removed, and fails the gate like a token regression or a lost round trip.
 */
export function compareResults(base: NamedResult, head: NamedResult, options: { maxRegression?: number } = {}): Comparison {
  const maxRegression = options.maxRegression ?? DEFAULT_MAX_REGRESSION;
  const { pairs, removedRows, addedRows, outOfScope } = matchRows(base.result, head.result);
  const cells = new CellSummaries();
  const judged = judgeEntries(pairs, maxRegression, cells);
  const { regressions, improvements, lost, gained } = judged;
  for (const r of removedRows) cells.of(r).removed++;
  for (const r of addedRows) cells.of(r).added++;
  const summary = cells.all();
  for (const c of summary) c.tokens.change = changeOf(c.tokens.base, c.tokens.head).change;

  // Biggest effect first: the rows whose tokens moved most (a few percent of a small list is noise).
  const moved = (e: EntryChange) => Math.max(...Object.values(e.tokens).map((t) => Math.abs(t!.head - t!.base)));
  regressions.sort((a, b) => moved(b) - moved(a));
  improvements.sort((a, b) => moved(b) - moved(a));

  // A row the head could not measure is still missing (the gate fails), and says why.
  const unwritten = new Map((head.result.unmeasured_cells ?? []).map((c) => [cellKey(c), c.reason]));
  const removed = entriesOf(removedRows).map((e) => {
    const why = unwritten.get(cellKey(e));
    return why === undefined ? e : { ...e, reason: `not measured in the head: ${why}` };
  });
  const added = entriesOf(addedRows);
  return {
    schema: COMPARE_SCHEMA,
    base: runInfo(base),
    head: runInfo(head),
    max_regression: maxRegression,
    // Nothing in common (a project the base never measured, the wrong baseline file) is no pass: the gate checked nothing.
    passed: pairs.length > 0 && regressions.length === 0 && lost.length === 0 && removed.length === 0,
    counts: {
      rows_compared: pairs.length,
      entries_compared: judged.entriesCompared,
      regressions: regressions.length,
      improvements: improvements.length,
      lost_round_trips: lost.length,
      gained_round_trips: gained.length,
      removed: removed.length,
      added: added.length,
      out_of_scope: outOfScope,
    },
    notes: notesOn(base.result, head.result),
    summary: orderCells(summary, base.result, head.result),
    regressions,
    improvements,
    lost_round_trips: lost,
    gained_round_trips: gained,
    removed,
    added,
    not_measured: head.result.unmeasured_cells ?? [],
    timing: compareTiming(pairs, base.result, head.result),
  };
}

interface RowPair {
  base: BenchmarkRow;
  head: BenchmarkRow;
}

/** The base rows inside the head's scope paired with the head's rows; those without a partner on either side; how many were out of scope. */
function matchRows(
  base: BenchmarkResult,
  head: BenchmarkResult,
): { pairs: RowPair[]; removedRows: BenchmarkRow[]; addedRows: BenchmarkRow[]; outOfScope: number } {
  const inScope = scopeOf(head);
  const headRows = new Map(head.rows.map((r) => [rowId(r), r]));
  const pairs: RowPair[] = [];
  const removedRows: BenchmarkRow[] = [];
  const matched = new Set<string>();
  let outOfScope = 0;
  for (const b of base.rows) {
    if (!inScope(b)) {
      outOfScope++;
      continue;
    }
    const id = rowId(b);
    const h = headRows.get(id);
    if (h) {
      pairs.push({ base: b, head: h });
      matched.add(id);
    } else removedRows.push(b);
  }
  const addedRows = head.rows.filter((r) => !matched.has(rowId(r)));
  return { pairs, removedRows, addedRows, outOfScope };
}

/** The per-format, level and tokenizer sums, in the order their first row came. */
class CellSummaries {
  private readonly cells = new Map<string, CellSummary>();

  of(r: BenchmarkRow): CellSummary {
    const key = `${r.format}|${r.level}|${r.tokenizer}`;
    let c = this.cells.get(key);
    if (!c) {
      c = {
        format: r.format,
        level: r.level,
        tokenizer: r.tokenizer,
        compared: 0,
        tokens: { base: 0, head: 0, change: 0 },
        pages: { base: 0, head: 0 },
        regressions: 0,
        improvements: 0,
        lost_round_trips: 0,
        gained_round_trips: 0,
        removed: 0,
        added: 0,
      };
      this.cells.set(key, c);
    }
    return c;
  }

  all(): CellSummary[] {
    return [...this.cells.values()];
  }
}

interface JudgedEntries {
  entriesCompared: number;
  regressions: EntryChange[];
  improvements: EntryChange[];
  lost: RoundTripChange[];
  gained: RoundTripChange[];
}

/** Each entry (a dataset at a level in a format) judged once over its tokenizers' rows, every row summed into its cell. */
function judgeEntries(pairs: readonly RowPair[], maxRegression: number, cells: CellSummaries): JudgedEntries {
  const judged: JudgedEntries = { entriesCompared: 0, regressions: [], improvements: [], lost: [], gained: [] };
  for (const [, entryPairs] of groupBy(pairs, (p) => entryKey(p.base))) {
    judged.entriesCompared++;
    const { tokens, regressed, improved, lostRows, gainedRows } = judgeRows(entryPairs, maxRegression, cells);
    const id = entryOf(entryPairs[0]!.base);
    if (regressed) judged.regressions.push({ ...id, tokens });
    else if (improved) judged.improvements.push({ ...id, tokens });
    // Every tokenizer's row is judged: a page's round trip can differ by tokenizer (RoundTripChange).
    if (lostRows.length > 0)
      judged.lost.push({
        ...id,
        tokenizers: lostRows.map((p) => p.head.tokenizer),
        reason: lostRows[0]!.head.lossless_reason ?? 'round trip failed',
      });
    if (gainedRows.length > 0)
      judged.gained.push({
        ...id,
        tokenizers: gainedRows.map((p) => p.base.tokenizer),
        reason: gainedRows[0]!.base.lossless_reason ?? 'round trip failed',
      });
  }
  return judged;
}

/** One entry's rows (one per tokenizer): their token changes, whether any grew or shrank past the tolerance, and the round trips lost or gained. */
function judgeRows(entryPairs: readonly RowPair[], maxRegression: number, cells: CellSummaries) {
  const tokens: EntryChange['tokens'] = {};
  let regressed = false;
  let improved = false;
  const lostRows: RowPair[] = [];
  const gainedRows: RowPair[] = [];
  for (const p of entryPairs) {
    const change = changeOf(p.base.tokens, p.head.tokens);
    tokens[p.base.tokenizer] = change;
    const c = cells.of(p.base);
    c.compared++;
    c.tokens.base += p.base.tokens;
    c.tokens.head += p.head.tokens;
    c.pages.base += p.base.pages;
    c.pages.head += p.head.pages;
    const grew = change.change === null || change.change > maxRegression;
    const shrank = change.change !== null && change.change < -maxRegression;
    if (grew) c.regressions++;
    if (shrank) c.improvements++;
    if (p.base.lossless && !p.head.lossless) {
      c.lost_round_trips++;
      lostRows.push(p);
    }
    if (!p.base.lossless && p.head.lossless) {
      c.gained_round_trips++;
      gainedRows.push(p);
    }
    regressed ||= grew;
    improved ||= shrank;
  }
  return { tokens, regressed, improved, lostRows, gainedRows };
}

/**
 * What the head run measured: its sources (each part's, for a merged result), dataset kinds, levels,
 * formats and tokenizers. A corpus run with no provider or project covers every project, so a
 * project that vanished from the corpus shows up as removed rows, not as out of scope.
 */
function scopeOf(head: BenchmarkResult): (r: BenchmarkRow) => boolean {
  const sources = head.merged_from?.length ? head.merged_from.map((p) => p.source) : [head.source];
  const kinds = new Set<string>(head.settings.dataset_kinds ?? head.datasets.map((d) => d.dataset));
  const levels = new Set<string>(head.settings.levels);
  const formats = new Set<string>(head.settings.formats);
  const tokenizers = new Set<string>(head.tokenizers.map((t) => t.name));
  return (r) =>
    sources.some((s) => (!s.provider || s.provider === r.provider) && (!s.target || s.target === r.project)) &&
    kinds.has(r.dataset) &&
    levels.has(r.level) &&
    formats.has(r.format) &&
    tokenizers.has(r.tokenizer);
}

function notesOn(base: BenchmarkResult, head: BenchmarkResult): string[] {
  const notes: string[] = [];
  if (base.devboy !== head.devboy) notes.push(`devboy ${base.devboy} -> ${head.devboy}`);
  const implOf = (xs: { name: string; implementation: string }[]) => new Map(xs.map((x) => [x.name, x.implementation]));
  for (const [what, b, h] of [
    ['tokenizer', implOf(base.tokenizers), implOf(head.tokenizers)],
    ['format', implOf(base.formats), implOf(head.formats)],
  ] as const) {
    for (const [name, impl] of h) {
      const before = b.get(name);
      if (before !== undefined && before !== impl) notes.push(`${what} ${name}: ${before} -> ${impl}`);
    }
  }
  const bs = base.settings;
  const hs = head.settings;
  if (bs.budget !== hs.budget) notes.push(`budget ${bs.budget} -> ${hs.budget} tokens: pages are counted at different budgets`);
  if (bs.savings_baseline !== hs.savings_baseline) notes.push(`savings baseline ${bs.savings_baseline} -> ${hs.savings_baseline}`);
  if ((bs.session ?? '') !== (hs.session ?? '')) notes.push(`session ${bs.session ?? 'none'} -> ${hs.session ?? 'none'}`);
  if (bs.runs !== hs.runs) notes.push(`timed runs ${bs.runs} -> ${hs.runs}`);
  if (timingText(bs) !== timingText(hs)) notes.push(`timing ${timingText(bs)} -> ${timingText(hs)}`);
  return notes;
}

/** How a result timed its cells; results from before adaptive timing have no `timing` and were fixed. */
function timingText(s: BenchmarkResult['settings']): string {
  if (!s.timing || s.timing.mode === 'fixed') return 'fixed';
  return `adaptive (at most ${s.timing.max_runs} runs within ${s.timing.budget_ms} ms)`;
}

function runInfo({ file, result }: NamedResult): RunInfo {
  return {
    file,
    devboy: result.devboy,
    source: result.source,
    ...(result.merged_from?.length ? { merged_parts: result.merged_from.length } : {}),
    datasets: result.datasets.length,
    rows: result.rows.length,
    runs: result.settings.runs,
    budget: result.settings.budget,
    tokenizers: result.tokenizers.map((t) => t.name),
  };
}

/** Cells in the runs' own order of formats, levels and tokenizers (head's first, then any only the base has). */
function orderCells(cells: CellSummary[], base: BenchmarkResult, head: BenchmarkResult): CellSummary[] {
  const rank = (xs: string[]) => {
    const m = new Map<string, number>();
    for (const x of xs) if (!m.has(x)) m.set(x, m.size);
    return (x: string) => m.get(x) ?? m.size;
  };
  const f = rank([...head.settings.formats, ...base.settings.formats]);
  const l = rank([...head.settings.levels, ...base.settings.levels]);
  const t = rank([...head.tokenizers, ...base.tokenizers].map((x) => x.name));
  return cells.sort((a, b) => f(a.format) - f(b.format) || l(a.level) - l(b.level) || t(a.tokenizer) - t(b.tokenizer));
}

function entriesOf(rows: BenchmarkRow[]): EntryRows[] {
  return [...groupBy(rows, entryKey).values()].map((rs) => ({ ...entryOf(rs[0]!), tokenizers: rs.map((r) => r.tokenizer) }));
}

export function changeOf(base: number, head: number): Change {
  if (base === 0) return { base, head, change: head === 0 ? 0 : null };
  return { base, head, change: roundFraction(head / base - 1) };
}

function entryOf(r: BenchmarkRow): EntryId {
  return { provider: r.provider, project: r.project, dataset: r.dataset, label: r.label, level: r.level, format: r.format };
}

function entryKey(r: EntryId): string {
  return [r.provider, r.project, r.dataset, r.label, r.level, r.format].join('\u0000');
}

function rowId(r: BenchmarkRow): string {
  return `${entryKey(r)}\u0000${r.tokenizer}`;
}
