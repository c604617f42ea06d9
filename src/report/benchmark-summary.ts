import { methodContrast, type MethodContrast } from '../benchmark/method-contrast.js';
import type { BenchmarkResult, BenchmarkRow, DatasetEntry } from '../benchmark/schema.js';
import type { DatasetKind } from '../model/index.js';
import { speedByFormat, type FormatSpeed } from '../benchmark/speed.js';
import { isCandidate } from '../formats/info.js';
import type { FormatName } from '../formats/types.js';
import type { TokenizerName } from '../tokens/types.js';
import type { Level } from '../trim/levels.js';
import { plural, savedPct } from '../text/words.js';
import { baselineFormatOf, MEASURED_BASELINES, type MeasuredBaseline } from '../metadata/format-metadata.js';
import { groupBy } from '../group-by.js';
import { changedOnly } from '../formats/loss.js';

/** The views every exporter shows, computed once from a result so table and Markdown agree. */
export interface BenchmarkSummary {
  /** The tokenizer figures are shown in: the first real one, else the heuristic. */
  primary: TokenizerName;
  formats: FormatName[];
  levels: Level[];
  /** Sum over datasets, per level and format, under the primary tokenizer. */
  totals: { level: Level; cells: TotalCell[]; winner?: FormatName }[];
  datasets: DatasetView[];
  /** Datasets whose first response at the budget cannot hold every item at full detail in some format. */
  fit: { title: string; dataset: DatasetEntry; cells: Map<FormatName, string> }[];
  /** Where the heuristic and the primary tokenizer pick different winners. */
  disagreements: { dataset: string; level: Level; heuristic: FormatName; primary: FormatName }[];
  /**
   * How the heuristic's winners compare with the primary tokenizer's, per dataset and level: cells
   * compared, cells where either has a tie for fewest tokens (a tie agrees when the tied formats
   * include the other's winner), and cells where they disagree.
   */
  heuristicWinners?: { cells: number; ties: number; differ: number };
  /** Per dataset kind and level: the lossless format with the fewest tokens under the primary tokenizer. */
  recommendations: Recommendation[];
  /** devboy-tools' published method beside the measured one (issue, MR and diff lists at full detail). */
  contrast?: MethodContrast;
  /** Encode and decode time per format over every dataset and level, with ratios to json-compact. */
  speed: FormatSpeed[];
  /** With --session: the played-back session's savings per format under the primary tokenizer. */
  session?: SessionView;
  /** The answer in a few words: the best lossless format per level, and what each level saves by itself. */
  headline: Headline;
  /** Per lossy format and level: what share of the values its lossy rows lose, and where most. */
  losses: LossView[];
  /** When the savings baseline is the user's own format (--savings-baseline yaml): the answer against it. */
  answer?: Answer;
}

export interface LossView {
  format: FormatName;
  level: Level;
  /** Rows (datasets) that do not round-trip, of `rows`. */
  lossyRows: number;
  rows: number;
  /** Leaf values of the lossy rows' items, and how many of them did not come back the same. */
  values: number;
  lost: number;
  /** The places where most values were lost, summed over the datasets' listed places (each lists its first five). */
  paths: { path: string; what: string; values: number }[];
}

export interface Answer {
  level: Level;
  /** The savings baseline as named in the run (yaml, csv, ...), and how the answer names it (your YAML). */
  baseline: string;
  label: string;
  /** The lossless candidate with the fewest tokens at this level; absent when none is lossless. */
  format?: FormatName;
  /** Its saving against the baseline, summed tokens over summed tokens (negative: it costs more). */
  saving?: number;
  /**
   * The values the user's format loses at this level, of the `values` of the `lossyRows` of `rows`
   * datasets it does not round-trip; when it loses none, what it changes instead (`key order`).
   */
  baselineLoss?: { lost: number; values: number; lossyRows: number; rows: number; changed: string };
  /** The other levels' best formats and savings, for the rest of the line. */
  others: { level: Level; format?: FormatName; saving?: number }[];
}

/** A saving under 1% of the baseline is no edge worth a format change: reports say so. */
export const SMALL_EDGE = 0.01;

export interface Headline {
  /** Per level: the lossless format with the fewest tokens summed over every dataset, and its saving vs the baseline. */
  best: { level: Level; format?: FormatName; saving?: number }[];
  /** The baseline's format at each level against the run's first (most detailed) level: what lowering the level saves. */
  levels: { level: Level; saving: number }[];
  /** The first level, which `levels` is measured from, and the format it is measured in. */
  from?: { level: Level; format: FormatName };
}

export interface Recommendation {
  kind: DatasetKind;
  level: Level;
  datasets: number;
  /** Fewest tokens summed over the kind's datasets, among formats lossless on every one of them. */
  winner?: FormatName;
  /** Against the run's savings baseline, summed tokens over summed tokens. */
  saving?: number;
  runnerUp?: { format: FormatName; tokens: number; winnerTokens: number };
}

export interface SessionView {
  file: string;
  calls: number;
  hits: number;
  baseline: string;
  /** `level`: a proxy ledger's calls lowered by --level (lossy by choice), apart from encoder and combined. */
  rows: { format: FormatName | 'proxy'; dedup: number; encoder: number; combined: number; measured: number; level?: number }[];
}

export interface TotalCell {
  format: FormatName;
  tokens: number;
  /** Against the run's savings baseline, summed tokens over summed tokens. */
  saving: number;
  pages: number;
  lossyRows: number;
  /** Datasets the format could not write at this level (`unmeasured_cells`): its sums leave them out, so it ranks nowhere. */
  unmeasured: number;
}

export interface DatasetView {
  title: string;
  /** What the title is made of, for exporters that escape each part for their sink. */
  dataset: DatasetEntry;
  items: number;
  /** Per level: each format's row, the formats that could not write the dataset there, and the winner. */
  levels: { level: Level; cells: Map<FormatName, BenchmarkRow>; unmeasured: Set<FormatName>; winner?: FormatName }[];
}

export function summarize(result: BenchmarkResult): BenchmarkSummary {
  const names = result.tokenizers.map((t) => t.name);
  const primary = names.find((n) => n !== 'heuristic') ?? names[0] ?? 'heuristic';
  const { formats, levels } = result.settings;
  const byKey = new Map<string, BenchmarkRow>();
  for (const r of result.rows) byKey.set(`${dsKey(r)}|${r.level}|${r.format}|${r.tokenizer}`, r);
  const rowOf = (d: DatasetEntry, level: Level, format: FormatName, tokenizer: TokenizerName) =>
    byKey.get(`${d.provider}|${d.project}|${d.dataset}|${d.label}|${level}|${format}|${tokenizer}`);

  const totals = totalsOf(result, primary);
  const titles = datasetTitles(result.datasets);
  const unwrittenHere = groupBy(result.unmeasured_cells ?? [], (c) => `${c.provider}|${c.project}|${c.dataset}|${c.label}|${c.level}`);
  const datasets: DatasetView[] = result.datasets.map((d, i) => ({
    title: titles[i]!,
    dataset: d,
    items: d.items,
    levels: levels.map((level) => {
      const cells = new Map<FormatName, BenchmarkRow>();
      for (const f of formats) {
        const r = rowOf(d, level, f, primary);
        if (r) cells.set(f, r);
      }
      const w = winnerOf([...cells.values()]);
      const unmeasured = new Set(
        (unwrittenHere.get(`${d.provider}|${d.project}|${d.dataset}|${d.label}|${level}`) ?? []).map((c) => c.format),
      );
      return { level, cells, unmeasured, ...(w ? { winner: w } : {}) };
    }),
  }));

  const { disagreements, heuristicWinners } = heuristicAgreement(result, primary, rowOf);
  const recommendations = recommend(result, primary, levels, formats);
  const contrast = result.method_contrast ?? methodContrast(result.rows, names);
  const fit = fitViews(result, titles);
  const speed = speedByFormat(result.rows, formats, primary);
  const session = sessionView(result, primary);
  const losses = lossViews(result, primary, levels, formats);
  const answer = answerOf(result, totals, losses);
  return {
    primary,
    formats,
    levels,
    headline: headlineOf(totals, result.settings.savings_baseline),
    losses,
    ...(answer ? { answer } : {}),
    totals,
    datasets,
    disagreements,
    ...(heuristicWinners ? { heuristicWinners } : {}),
    recommendations,
    ...(contrast ? { contrast } : {}),
    fit,
    speed,
    ...(session ? { session } : {}),
  };
}

type RowOf = (d: DatasetEntry, level: Level, format: FormatName, tokenizer: TokenizerName) => BenchmarkRow | undefined;

/** Per level and format, summed over datasets under the primary tokenizer; the level's winner is the lossless candidate with the fewest tokens. */
function totalsOf(result: BenchmarkResult, primary: TokenizerName): BenchmarkSummary['totals'] {
  const { formats, levels } = result.settings;
  const unwritten = groupBy(result.unmeasured_cells ?? [], (c) => `${c.level}|${c.format}`);
  return levels.map((level) => {
    const cells = formats.map((format) => {
      const rows = result.rows.filter((r) => r.level === level && r.format === format && r.tokenizer === primary);
      const tokens = sum(rows.map((r) => r.tokens));
      const base = sum(rows.map((r) => r.savings.baseline_tokens));
      return {
        format,
        tokens,
        saving: base === 0 ? 0 : 1 - tokens / base,
        pages: sum(rows.map((r) => r.pages)),
        lossyRows: rows.filter((r) => !r.lossless).length,
        unmeasured: unwritten.get(`${level}|${format}`)?.length ?? 0,
      };
    });
    // Totals over fewer datasets are no match for the others': a format is ranked only where it wrote every dataset.
    const lossless = cells.filter((c) => c.lossyRows === 0 && c.unmeasured === 0 && isCandidate(c.format));
    const winner = lossless.length ? lossless.reduce((a, b) => (b.tokens < a.tokens ? b : a)).format : undefined;
    return { level, cells, ...(winner ? { winner } : {}) };
  });
}

/** Where the heuristic picks another winner than the primary tokenizer (only when both were run). */
function heuristicAgreement(
  result: BenchmarkResult,
  primary: TokenizerName,
  rowOf: RowOf,
): Pick<BenchmarkSummary, 'disagreements' | 'heuristicWinners'> {
  const disagreements: BenchmarkSummary['disagreements'] = [];
  const { formats, levels } = result.settings;
  if (primary === 'heuristic' || !result.tokenizers.some((t) => t.name === 'heuristic')) return { disagreements };
  const heuristicWinners = { cells: 0, ties: 0, differ: 0 };
  for (const d of result.datasets) {
    for (const level of levels) {
      const pick = (tk: TokenizerName) => fewestTokens(formats.map((f) => rowOf(d, level, f, tk)).filter((r): r is BenchmarkRow => !!r));
      const h = pick('heuristic');
      const p = pick(primary);
      if (h.length === 0 || p.length === 0) continue;
      heuristicWinners.cells++;
      if (h.length > 1 || p.length > 1) heuristicWinners.ties++;
      if (!h.some((f) => p.includes(f))) {
        heuristicWinners.differ++;
        disagreements.push({ dataset: `${d.provider} ${d.project} ${d.dataset}`, level, heuristic: h[0]!, primary: p[0]! });
      }
    }
  }
  return { disagreements, heuristicWinners };
}

/** The datasets whose first response at the budget leaves items out, cuts them, or holds nothing, in some format. */
function fitViews(result: BenchmarkResult, titles: readonly string[]): BenchmarkSummary['fit'] {
  const fit: BenchmarkSummary['fit'] = [];
  // Grouped once: filtering every fit entry per dataset was quadratic in datasets (2,000 recordings of a project: 6 s).
  const fitByDataset = groupBy(result.fit, (f) => `${f.provider}|${f.project}|${f.dataset}|${f.label}`);
  result.datasets.forEach((d, i) => {
    const entries = fitByDataset.get(`${d.provider}|${d.project}|${d.dataset}|${d.label}`) ?? [];
    const squeezed = entries.some((f) => !f.fits || f.included_items < f.total_items || f.truncated);
    if (!squeezed) return;
    const cells = new Map<FormatName, string>();
    for (const f of entries) cells.set(f.format, f.fits ? fitCell(f) : 'nothing fits');
    fit.push({ title: titles[i]!, dataset: d, cells });
  });
  return fit;
}

function sessionView(result: BenchmarkResult, primary: TokenizerName): SessionView | undefined {
  if (!result.session) return undefined;
  return {
    file: result.session.file,
    calls: result.session.calls,
    hits: result.session.hits,
    baseline: result.session.baseline,
    rows: result.session.results
      .filter((x) => x.tokenizer === primary)
      .map((x) => ({
        format: x.format,
        dedup: x.dedup,
        encoder: x.encoder,
        combined: x.combined,
        measured: x.measured,
        ...(x.level !== undefined ? { level: x.level } : {}),
      })),
  };
}

function headlineOf(totals: BenchmarkSummary['totals'], baseline: string): Headline {
  const best = totals.map((t) => {
    const cell = t.cells.find((c) => c.format === t.winner);
    return { level: t.level, ...(cell ? { format: cell.format, saving: cell.saving } : {}) };
  });
  const format = (MEASURED_BASELINES as string[]).includes(baseline) ? baselineFormatOf(baseline as MeasuredBaseline) : undefined;
  const tokensAt = (t: (typeof totals)[number]) => t.cells.find((c) => c.format === format)?.tokens ?? 0;
  const first = totals[0];
  if (!format || !first || tokensAt(first) === 0) return { best, levels: [] };
  const levels = totals.slice(1).map((t) => ({ level: t.level, saving: 1 - tokensAt(t) / tokensAt(first) }));
  return { best, levels, from: { level: first.level, format } };
}

/** Per format and level that lost anything: the share of its lossy rows' values, and the places that lost most. */
function lossViews(result: BenchmarkResult, primary: TokenizerName, levels: Level[], formats: FormatName[]): LossView[] {
  const out: LossView[] = [];
  for (const format of formats) {
    for (const level of levels) {
      const rows = result.rows.filter((r) => r.format === format && r.level === level && r.tokenizer === primary);
      const lossy = rows.filter((r) => !r.lossless);
      if (lossy.length === 0) continue;
      const places = new Map<string, { path: string; what: string; values: number; first: number }>();
      let values = 0;
      let lost = 0;
      for (const r of lossy) {
        values += r.loss?.values ?? 0;
        lost += r.loss?.lost ?? 0;
        for (const p of r.loss?.paths ?? []) {
          const key = `${p.what}\u0000${p.path}`;
          const place = places.get(key);
          if (place) place.values += p.values;
          else places.set(key, { ...p, first: places.size });
        }
      }
      const paths = [...places.values()]
        .sort((a, b) => b.values - a.values || a.first - b.first)
        .slice(0, 3)
        .map(({ path, what, values: n }) => ({ path, what, values: n }));
      out.push({ format, level, lossyRows: lossy.length, rows: rows.length, values, lost, paths });
    }
  }
  return out;
}

/** How the answer names a savings baseline that is the user's own format. */
const BASELINE_LABEL: Record<string, string> = {
  yaml: 'your YAML',
  csv: 'your CSV',
  'markdown-table': 'your Markdown table',
  'markdown-kv': 'your Markdown key-value list',
  xml: 'your XML',
};

/** Against the user's own format: at full detail (else the first level), the best lossless candidate. */
function answerOf(result: BenchmarkResult, totals: BenchmarkSummary['totals'], losses: readonly LossView[]): Answer | undefined {
  const baseline = result.settings.savings_baseline;
  const label = BASELINE_LABEL[baseline];
  if (!label || totals.length === 0) return undefined;
  const pick = (t: BenchmarkSummary['totals'][number]) => {
    const cell = t.cells.find((c) => c.format === t.winner);
    return { level: t.level, ...(t.winner ? { format: t.winner } : {}), ...(cell ? { saving: cell.saving } : {}) };
  };
  const main = totals.find((t) => t.level === 'full') ?? totals[0]!;
  const own = losses.find((l) => l.format === baseline && l.level === main.level);
  return {
    ...pick(main),
    baseline,
    label,
    ...(own && own.values > 0
      ? {
          baselineLoss: { lost: own.lost, values: own.values, lossyRows: own.lossyRows, rows: own.rows, changed: changedOnly(own.paths) },
        }
      : {}),
    others: totals.filter((t) => t !== main).map(pick),
  };
}

/** `83/150 items: 12 full, 71 minimal, 3 cut, 2 chunks` */
function fitCell(f: Extract<BenchmarkResult['fit'][number], { fits: true }>): string {
  const parts = [
    f.detail.full && `${f.detail.full} full`,
    f.detail.standard && `${f.detail.standard} std`,
    f.detail.minimal && `${f.detail.minimal} min`,
    f.detail.cut && `${f.detail.cut} cut`,
  ].filter(Boolean);
  return `${f.included_items}/${f.total_items}: ${parts.join(', ')}${f.total_chunks > 1 ? ` (${f.total_chunks} chunks)` : ''}`;
}

/**
 * What names a dataset in a report: provider, project, kind, items and the request it came from,
 * in full. Two datasets of one project and kind differ in their requests, so no two titles are alike.
 */
export function datasetTitles(datasets: readonly DatasetEntry[]): string[] {
  return datasets.map((d) => `${d.provider} ${d.project} ${d.dataset}, ${plural(d.items, 'item')}: ${d.label}`);
}

/** Per dataset kind and level, the lossless format with the fewest tokens, with its margin over the runner-up. */
function recommend(result: BenchmarkResult, primary: TokenizerName, levels: Level[], formats: FormatName[]): Recommendation[] {
  const out: Recommendation[] = [];
  const kinds = [...new Set(result.datasets.map((d) => d.dataset))];
  for (const kind of kinds) {
    for (const level of levels) {
      const rows = result.rows.filter((r) => r.dataset === kind && r.level === level && r.tokenizer === primary);
      const datasets = new Set(rows.map(dsKey)).size;
      const cells = formats.map((format) => {
        const mine = rows.filter((r) => r.format === format);
        return {
          format,
          tokens: sum(mine.map((r) => r.tokens)),
          base: sum(mine.map((r) => r.savings.baseline_tokens)),
          // Lossless on every dataset of the kind, and measured on every one (a format that cannot write one has fewer rows).
          lossless: mine.length > 0 && mine.length === datasets && mine.every((r) => r.lossless),
        };
      });
      const ranked = cells.filter((c) => c.lossless && isCandidate(c.format)).sort((a, b) => a.tokens - b.tokens);
      const [first, second] = ranked;
      out.push({
        kind,
        level,
        datasets,
        ...(first ? { winner: first.format, saving: first.base === 0 ? 0 : 1 - first.tokens / first.base } : {}),
        ...(first && second ? { runnerUp: { format: second.format, tokens: second.tokens, winnerTokens: first.tokens } } : {}),
      });
    }
  }
  return out;
}

/** The lossless formats with the fewest tokens (more than one on a tie). */
function fewestTokens(rows: BenchmarkRow[]): FormatName[] {
  const ok = rows.filter((r) => r.lossless && isCandidate(r.format));
  if (ok.length === 0) return [];
  const min = Math.min(...ok.map((r) => r.tokens));
  return ok.filter((r) => r.tokens === min).map((r) => r.format);
}

/** The lossless format with the fewest tokens; a format that loses data cannot win. */
function winnerOf(rows: BenchmarkRow[]): FormatName | undefined {
  const ok = rows.filter((r) => r.lossless && isCandidate(r.format));
  if (ok.length === 0) return undefined;
  return ok.reduce((a, b) => (b.tokens < a.tokens ? b : a)).format;
}

function dsKey(r: BenchmarkRow): string {
  return `${r.provider}|${r.project}|${r.dataset}|${r.label}`;
}

function sum(xs: number[]): number {
  return xs.reduce((a, b) => a + b, 0);
}

export function pct(f: number): string {
  const v = (f * 100).toFixed(1);
  return f > 0 ? `-${v}%` : `+${(-f * 100).toFixed(1)}%`;
}

/** A saving as a share of the baseline: 0.66 -> `66.0%`. */
export const saved = savedPct;

/** Milliseconds with the digits that mean something at that size. */
export function ms(v: number): string {
  return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 0.1 ? v.toFixed(2) : v.toFixed(3);
}
