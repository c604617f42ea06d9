import { FORMAT_INFO, loadFormat, type FormatName, type FormatOptions } from '../formats/registry.js';
import { BASELINE_FORMAT, SAVINGS_BASELINES, type SavingsBaseline } from '../metadata/format-metadata.js';
import type { Dataset, DatasetKind } from '../model/index.js';
import { loadTokenizer, type TokenizerName } from '../tokens/registry.js';
import { datasetAtLevel, type Level } from '../trim/levels.js';
import { measureEncoding } from './measure.js';
import { buildRow } from './row.js';
import { firstResponseFit } from './fit.js';
import { pagesAtBudget } from './pages.js';
import { BENCHMARK_SCHEMA, type BenchmarkResult, type BenchmarkRow, type DatasetEntry, type SessionSummary } from './schema.js';
import { biasTable } from './bias.js';
import { methodContrast, type MethodContrast } from './method-contrast.js';
import type { TranscriptDedup } from './transcript-dedup.js';
import { TokenCache } from './token-cache.js';
import type { SkippedRecording } from '../replay/corpus.js';
import { devboyVersion } from '../versions.js';
import { tokenizerImplementation } from './versions.js';
import type { Explainer } from '../formats/explainers.js';
import { familyViews } from './family-views.js';
import { countExplainers } from './break-even.js';

export interface BenchmarkOptions {
  kinds: DatasetKind[];
  levels: Level[];
  formats: FormatName[];
  tokenizers: TokenizerName[];
  budget: number;
  runs: number;
  savingsBaseline: SavingsBaseline;
  formatOptions?: FormatOptions;
  /** A replayed session: its dedup saving per tokenizer goes into every row (0 without one). */
  session?: { dedup: TranscriptDedup; summary: SessionSummary };
  /** The prompts that teach the measured formats: counted, and their break-even computed (docs/tokenizers.md). */
  explainers?: Explainer[];
}

export interface BenchmarkSource {
  kind: 'corpus' | 'live';
  corpus?: string;
  /** Corpus recordings that could not be read or replayed, listed in the result. */
  skipped?: SkippedRecording[];
  provider?: Dataset['provider'];
  target?: string;
}

export interface BenchmarkProgress {
  done: number;
  total: number;
  what: string;
}

/** The formats every row's savings are taken against; measured even when not asked for. */
const BASELINE_FORMATS: Record<SavingsBaseline, FormatName> = BASELINE_FORMAT;

/**
 * Measure every dataset at every level in every format under every tokenizer. Each text is
 * encoded once and counted once per tokenizer; timings re-run encode and decode on purpose.
 */
export async function runBenchmark(
  allDatasets: readonly Dataset[],
  source: BenchmarkSource,
  options: BenchmarkOptions,
  onProgress?: (p: BenchmarkProgress) => void,
): Promise<BenchmarkResult> {
  const measured = unique([...options.formats, ...Object.values(BASELINE_FORMATS)]);
  const formats = new Map(await Promise.all(measured.map(async (n) => [n, await loadFormat(n, options.formatOptions)] as const)));
  const tokenizers = await Promise.all(options.tokenizers.map((n) => loadTokenizer(n)));
  const caches = new Map(tokenizers.map((t) => [t.name, new TokenCache(t)]));

  const datasets = allDatasets.filter((d) => options.kinds.includes(d.kind));
  const rows: BenchmarkRow[] = [];
  const total = datasets.length * options.levels.length;
  let done = 0;
  for (const ds of datasets) {
    const rawBytes = Buffer.byteLength(JSON.stringify(ds.raw));
    for (const level of options.levels) {
      onProgress?.({ done, total, what: `${ds.provider}/${ds.project} ${ds.kind} ${level}` });
      const items = datasetAtLevel(ds, level);
      const encoded = new Map(measured.map((name) => [name, measureEncoding(formats.get(name)!, items, options.runs)] as const));
      for (const tokenizer of tokenizers) {
        const { count } = caches.get(tokenizer.name)!;
        const baselineTokens = Object.fromEntries(
          SAVINGS_BASELINES.map((b) => [b, count(encoded.get(BASELINE_FORMATS[b])!.text)]),
        ) as Record<SavingsBaseline, number>;
        for (const format of options.formats) {
          const e = encoded.get(format)!;
          const { pages, loss } = pagesAtBudget({
            kind: ds.kind,
            items,
            text: e.text,
            models: ds.result.items,
            budget: options.budget,
            format: e.format,
            tokenizer,
            count,
          });
          rows.push(
            buildRow({
              dataset: ds,
              rawBytes,
              level,
              format,
              // The whole list round-trips, yet a page may not: then the row is not lossless either.
              encoded: loss && e.lossless ? { ...e, lossless: false, reason: loss } : e,
              tokenizer: tokenizer.name,
              tokens: count(e.text),
              baselineTokens,
              pages,
              savingsBaseline: options.savingsBaseline,
              dedup: options.session?.dedup[format]?.[tokenizer.name] ?? 0,
            }),
          );
        }
      }
      done++;
    }
  }
  // The fit view under the report's main tokenizer: the first real one, else the heuristic.
  const fitTokenizer = tokenizers.find((t) => !t.estimate) ?? tokenizers[0]!;
  const fit = datasets.flatMap((ds) =>
    options.formats.map((name) =>
      firstResponseFit(ds, formats.get(name)!, fitTokenizer, options.budget, caches.get(fitTokenizer.name)!.count),
    ),
  );
  onProgress?.({ done, total, what: 'done' });
  const explainers = options.explainers?.length ? countExplainers(options.explainers, tokenizers) : undefined;

  return {
    schema: BENCHMARK_SCHEMA,
    devboy: devboyVersion(),
    source: {
      kind: source.kind,
      ...(source.corpus ? { corpus: source.corpus } : {}),
      ...(source.provider ? { provider: source.provider } : {}),
      ...(source.target ? { target: source.target } : {}),
    },
    settings: {
      budget: options.budget,
      runs: options.runs,
      savings_baseline: options.savingsBaseline,
      levels: options.levels,
      formats: options.formats,
      dataset_kinds: options.kinds,
      ...(options.session ? { session: options.session.summary.file } : {}),
    },
    tokenizers: tokenizers.map((t) => ({ name: t.name, estimate: t.estimate, implementation: tokenizerImplementation(t.name) })),
    formats: options.formats.map((n) => ({ name: n, media_type: FORMAT_INFO[n].mediaType, implementation: FORMAT_INFO[n].implementation })),
    datasets: datasets.map(datasetEntry),
    rows,
    heuristic_bias: biasTable(rows),
    ...withContrast(methodContrast(rows, options.tokenizers)),
    skipped: (source.skipped ?? []).map((s) => ({
      file: s.file,
      ...(s.line !== undefined ? { line: s.line } : {}),
      ...(s.col !== undefined ? { col: s.col } : {}),
      reason: s.reason,
    })),
    fit,
    ...(options.session ? { session: options.session.summary } : {}),
    ...(explainers ? { explainers } : {}),
    ...familyViews(rows, tokenizers, explainers, options.savingsBaseline, options.formats),
    lossy: lossyCells(rows).map((r) => ({
      provider: r.provider,
      project: r.project,
      dataset: r.dataset,
      label: r.label,
      level: r.level,
      format: r.format,
      reason: r.lossless_reason ?? 'not lossless',
    })),
  };
}

/**
 * Rows that do not round-trip, once per dataset, level and format. The whole list's loss is the
 * same under every tokenizer; a page's loss can differ (pages split where the budget falls in
 * that tokenizer's counts): the first tokenizer's reason is listed.
 */
function lossyCells(rows: readonly BenchmarkRow[]): BenchmarkRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    if (r.lossless) return false;
    const key = [r.provider, r.project, r.dataset, r.label, r.level, r.format].join('\u0000');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function datasetEntry(ds: Dataset): DatasetEntry {
  return {
    provider: ds.provider,
    project: ds.project,
    dataset: ds.kind,
    label: ds.label,
    items: ds.result.items.length,
    pagination: ds.result.pagination ?? null,
    sort: ds.result.sort_info ?? null,
  };
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}

function withContrast(contrast: MethodContrast | undefined): { method_contrast?: MethodContrast } {
  return contrast ? { method_contrast: contrast } : {};
}
