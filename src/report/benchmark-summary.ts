import type { BenchmarkResult, BenchmarkRow } from '../benchmark/schema.js';
import { speedByFormat, type FormatSpeed } from '../benchmark/speed.js';
import type { FormatName } from '../formats/types.js';
import type { TokenizerName } from '../tokens/types.js';
import type { Level } from '../trim/levels.js';
import { plural } from './words.js';

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
  fit: { title: string; cells: Map<FormatName, string> }[];
  /** Where the heuristic and the primary tokenizer pick different winners. */
  disagreements: { dataset: string; level: Level; heuristic: FormatName; primary: FormatName }[];
  /** Encode and decode time per format over every dataset and level, with ratios to json-compact. */
  speed: FormatSpeed[];
  /** With --session: the replayed session's savings per format under the primary tokenizer. */
  session?: SessionView;
}

export interface SessionView {
  file: string;
  calls: number;
  hits: number;
  baseline: string;
  rows: { format: FormatName; dedup: number; encoder: number; combined: number; measured: number }[];
}

export interface TotalCell {
  format: FormatName;
  tokens: number;
  /** Against the run's savings baseline, summed tokens over summed tokens. */
  saving: number;
  pages: number;
  lossyRows: number;
}

export interface DatasetView {
  title: string;
  items: number;
  levels: { level: Level; cells: Map<FormatName, BenchmarkRow>; winner?: FormatName }[];
}

export function summarize(result: BenchmarkResult): BenchmarkSummary {
  const names = result.tokenizers.map((t) => t.name);
  const primary = names.find((n) => n !== 'heuristic') ?? names[0] ?? 'heuristic';
  const { formats, levels } = result.settings;
  const byKey = new Map<string, BenchmarkRow>();
  for (const r of result.rows) byKey.set(`${dsKey(r)}|${r.level}|${r.format}|${r.tokenizer}`, r);

  const totals = levels.map((level) => {
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
      };
    });
    const lossless = cells.filter((c) => c.lossyRows === 0);
    const winner = lossless.length ? lossless.reduce((a, b) => (b.tokens < a.tokens ? b : a)).format : undefined;
    return { level, cells, ...(winner ? { winner } : {}) };
  });

  const datasets: DatasetView[] = result.datasets.map((d) => {
    const key = `${d.provider}|${d.project}|${d.dataset}|${d.label}`;
    return {
      title: `${d.provider} ${d.project} ${d.dataset}, ${plural(d.items, 'item')}: ${d.label}`,
      items: d.items,
      levels: levels.map((level) => {
        const cells = new Map<FormatName, BenchmarkRow>();
        for (const f of formats) {
          const r = byKey.get(`${key}|${level}|${f}|${primary}`);
          if (r) cells.set(f, r);
        }
        const w = winnerOf([...cells.values()]);
        return { level, cells, ...(w ? { winner: w } : {}) };
      }),
    };
  });

  const disagreements: BenchmarkSummary['disagreements'] = [];
  if (primary !== 'heuristic' && names.includes('heuristic')) {
    for (const d of result.datasets) {
      const key = `${d.provider}|${d.project}|${d.dataset}|${d.label}`;
      for (const level of levels) {
        const pick = (tk: TokenizerName) =>
          winnerOf(formats.map((f) => byKey.get(`${key}|${level}|${f}|${tk}`)).filter((r): r is BenchmarkRow => !!r));
        const h = pick('heuristic');
        const p = pick(primary);
        if (h && p && h !== p) disagreements.push({ dataset: `${d.provider} ${d.project} ${d.dataset}`, level, heuristic: h, primary: p });
      }
    }
  }
  const fit: BenchmarkSummary['fit'] = [];
  for (const d of result.datasets) {
    const entries = result.fit.filter(
      (f) => f.provider === d.provider && f.project === d.project && f.dataset === d.dataset && f.label === d.label,
    );
    const squeezed = entries.some((f) => !f.fits || f.included_items < f.total_items || f.truncated);
    if (!squeezed) continue;
    const cells = new Map<FormatName, string>();
    for (const f of entries) cells.set(f.format, f.fits ? fitCell(f) : 'nothing fits');
    fit.push({ title: `${d.provider} ${d.project} ${d.dataset}, ${plural(d.items, 'item')}`, cells });
  }
  const speed = speedByFormat(result.rows, formats, primary);
  const session = result.session
    ? {
        file: result.session.file,
        calls: result.session.calls,
        hits: result.session.hits,
        baseline: result.session.baseline,
        rows: result.session.results
          .filter((x) => x.tokenizer === primary)
          .map((x) => ({ format: x.format, dedup: x.dedup, encoder: x.encoder, combined: x.combined, measured: x.measured })),
      }
    : undefined;
  return { primary, formats, levels, totals, datasets, disagreements, fit, speed, ...(session ? { session } : {}) };
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

/** The lossless format with the fewest tokens; a format that loses data cannot win. */
function winnerOf(rows: BenchmarkRow[]): FormatName | undefined {
  const ok = rows.filter((r) => r.lossless);
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
export function saved(f: number): string {
  return `${(f * 100).toFixed(1)}%`;
}

/** Milliseconds with the digits that mean something at that size. */
export function ms(v: number): string {
  return v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v >= 0.1 ? v.toFixed(2) : v.toFixed(3);
}

/** `12.3 ms [11.9-13.0]`: the summed medians and where they could have landed. */
export function msSpread(median: number, spread: readonly [number, number]): string {
  return `${ms(median)} ms [${ms(spread[0])}-${ms(spread[1])}]`;
}

export function ratio(r: number | null): string {
  return r === null ? '' : `×${r.toFixed(2)}`;
}

export { int } from './words.js';
