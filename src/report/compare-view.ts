import type { CellSummary, Change, Comparison, EntryId, RunInfo } from '../compare/compare.js';
import type { FormatName } from '../formats/types.js';
import type { TokenizerName } from '../tokens/types.js';
import type { Level } from '../trim/levels.js';
import { EMBEDDED_CORPUS_LABEL } from '../replay/embedded-corpus.js';
import { int } from '../text/words.js';

/** What the compare exporters show, computed once so the terminal and Markdown reports agree. */
export interface CompareView {
  /** The first real tokenizer both runs have (else the heuristic): pages and the chart use it. */
  primary: TokenizerName | undefined;
  /** Columns: the primary tokenizer first, then the others. */
  tokenizers: TokenizerName[];
  /** One line, the verdict first. */
  verdict: string;
  /** Format x level cells with any change, tokenizers side by side. */
  changed: ChangedCell[];
  unchangedCells: number;
  /** Head tokens as a percentage of base tokens per format, all levels, under the primary tokenizer. */
  byFormat: { format: FormatName; base: number; head: number; percent: number }[];
}

export interface ChangedCell {
  format: FormatName;
  level: Level;
  byTokenizer: Map<TokenizerName, CellSummary>;
  pages?: { base: number; head: number };
  lost: number;
  gained: number;
  removed: number;
  added: number;
}

export function compareView(c: Comparison): CompareView {
  const names = [...new Set(c.summary.map((x) => x.tokenizer))];
  const primary = names.find((n) => n !== 'heuristic') ?? names[0];
  const tokenizers = primary ? [primary, ...names.filter((n) => n !== primary)] : names;

  const groups = new Map<string, CellSummary[]>();
  for (const cell of c.summary) {
    const key = `${cell.format}|${cell.level}`;
    groups.set(key, [...(groups.get(key) ?? []), cell]);
  }
  const changed: ChangedCell[] = [];
  for (const cells of groups.values()) {
    const cell = changedCell(c, cells, primary);
    if (moved(cells, cell)) changed.push(cell);
  }
  return {
    primary,
    tokenizers,
    verdict: verdictOf(c),
    changed,
    unchangedCells: groups.size - changed.length,
    byFormat: byFormatOf(c, primary),
  };
}

/** One format × level cell, its tokenizers side by side. */
function changedCell(c: Comparison, cells: CellSummary[], primary: TokenizerName | undefined): ChangedCell {
  const byTokenizer = new Map(cells.map((x) => [x.tokenizer, x]));
  const one = (primary && byTokenizer.get(primary)) || cells[0]!;
  // Rows (entries) whose round trip changed under any tokenizer: a page's can differ by tokenizer.
  const here = (e: EntryId) => e.format === one.format && e.level === one.level;
  const p = primary ? byTokenizer.get(primary) : undefined;
  return {
    format: one.format,
    level: one.level,
    byTokenizer,
    ...(p ? { pages: p.pages } : {}),
    lost: c.lost_round_trips.filter(here).length,
    gained: c.gained_round_trips.filter(here).length,
    removed: Math.max(...cells.map((x) => x.removed)),
    added: Math.max(...cells.map((x) => x.added)),
  };
}

/** Any token, page, round-trip or row change in the cell. */
function moved(cells: readonly CellSummary[], cell: ChangedCell): boolean {
  return Boolean(
    cells.some((x) => x.tokens.base !== x.tokens.head || x.regressions || x.improvements) ||
    (cell.pages && cell.pages.base !== cell.pages.head) ||
    cell.lost ||
    cell.gained ||
    cell.removed ||
    cell.added,
  );
}

function byFormatOf(c: Comparison, primary: TokenizerName | undefined): CompareView['byFormat'] {
  const byFormat: CompareView['byFormat'] = [];
  for (const cell of c.summary) {
    if (cell.tokenizer !== primary || cell.compared === 0) continue;
    let f = byFormat.find((x) => x.format === cell.format);
    if (!f) byFormat.push((f = { format: cell.format, base: 0, head: 0, percent: 100 }));
    f.base += cell.tokens.base;
    f.head += cell.tokens.head;
  }
  for (const f of byFormat) f.percent = f.base === 0 ? 100 : (f.head / f.base) * 100;
  return byFormat;
}

function verdictOf(c: Comparison): string {
  const n = c.counts;
  const tol = tolerance(c.max_regression);
  const problems = [
    n.rows_compared === 0 && 'no row of the head is in the base, so nothing was compared',
    n.regressions && `${plural(n.regressions, 'row')} grew more than ${tol} in tokens`,
    n.lost_round_trips &&
      `${plural(n.lost_round_trips, 'row')} stopped round-tripping (under ${[...new Set(c.lost_round_trips.flatMap((e) => e.tokenizers))].join(', ')})`,
    n.removed && `${plural(n.removed, 'row')} ${n.removed === 1 ? 'is' : 'are'} missing`,
  ].filter(Boolean);
  const good = [
    n.improvements && `${n.improvements} improved beyond ${tol}`,
    n.gained_round_trips && `${n.gained_round_trips} round-trip now`,
    n.added && `${n.added} new`,
  ].filter(Boolean);
  const head = c.passed
    ? `PASSED: no token count grew more than ${tol}, no round trip lost, no row missing`
    : `FAILED: ${problems.join(', ')}`;
  return `${head}${good.length ? `; ${good.join(', ')}` : ''} (${int(n.entries_compared)} rows compared under ${plural(c.head.tokenizers.filter((t) => c.base.tokenizers.includes(t)).length, 'tokenizer')}${n.out_of_scope ? `, ${int(n.out_of_scope)} base rows outside the head's scope` : ''}).`;
}

/**
 * `results/baseline.json (devboy 0.1.0, embedded corpus, 93 datasets, 3,720 rows)`. `data` escapes
 * the strings a result file holds (file name, version, corpus path, provider, target) for the sink.
 */
export function runText(r: RunInfo, data: (text: string) => string = (t) => t): string {
  const src =
    r.source.kind === 'corpus'
      ? r.source.corpus === EMBEDDED_CORPUS_LABEL
        ? 'embedded corpus'
        : `corpus ${data(r.source.corpus ?? '')}`
      : `live ${data(r.source.provider ?? '')}`;
  const narrowed = [r.source.kind === 'corpus' ? r.source.provider : undefined, r.source.target]
    .filter((x): x is string => Boolean(x))
    .map(data)
    .join('/');
  return `${data(r.file)} (devboy ${data(r.devboy)}, ${src.trim()}${narrowed ? ` ${narrowed}` : ''}${r.merged_parts ? `, merged from ${r.merged_parts} parts` : ''}, ${int(r.datasets)} datasets, ${int(r.rows)} rows)`;
}

/** `github owner__repo issues: GET /...`; `data` escapes each part for the sink. */
export function entryTitle(e: EntryId, data: (text: string) => string = (t) => t): string {
  return `${data(e.provider)} ${data(e.project)} ${data(e.dataset)}: ${data(e.label)}`;
}

/** `4,568 -> 4,809 (+5.3%)`, or `= 4,568` when nothing moved. */
export function changeText(t: Change | undefined, arrow = '→'): string {
  if (!t) return '';
  if (t.base === t.head) return `= ${int(t.head)}`;
  return `${int(t.base)} ${arrow} ${int(t.head)} (${signedPct(t.change)})`;
}

export function signedPct(change: number | null): string {
  if (change === null) return 'new';
  const v = (change * 100).toFixed(change !== 0 && Math.abs(change) < 0.001 ? 2 : 1);
  return change >= 0 ? `+${v}%` : `${v}%`;
}

/** ▲N: rows grown beyond the tolerance; ▼N: shrunk beyond it. */
export function overText(cell: CellSummary | undefined): string {
  if (!cell) return '';
  return [cell.regressions && `▲${cell.regressions}`, cell.improvements && `▼${cell.improvements}`].filter(Boolean).join(' ');
}

export function pagesText(p: { base: number; head: number } | undefined, arrow = '→'): string {
  if (!p) return '';
  return p.base === p.head ? `= ${int(p.head)}` : `${int(p.base)} ${arrow} ${int(p.head)}`;
}

export function rowsText(cell: ChangedCell): string {
  return [cell.removed && `${cell.removed} missing`, cell.added && `${cell.added} new`].filter(Boolean).join(', ');
}

export function roundTripText(cell: ChangedCell): string {
  return [cell.lost && `${cell.lost} lost`, cell.gained && `${cell.gained} regained`].filter(Boolean).join(', ');
}

export function tolerance(f: number): string {
  return `${(f * 100).toFixed(2)}%`;
}

export function plural(n: number, word: string): string {
  return `${int(n)} ${word}${n === 1 ? '' : 's'}`;
}
