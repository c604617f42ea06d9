import { FORMAT_INFO, loadFormat, type FormatName, type FormatOptions } from '../formats/registry.js';
import type { JsonValue } from '../json/types.js';
import {
  combineSavings,
  roundFraction,
  savingAgainst,
  SAVINGS_BASELINES,
  type FormatMetadata,
  type SavingsBaseline,
} from '../metadata/format-metadata.js';
import type { Dataset, DatasetKind } from '../providers/types.js';
import { loadTokenizer, type TokenizerName } from '../tokens/registry.js';
import { datasetAtLevel, type Level } from '../trim/levels.js';
import { measureEncoding, type Encoded } from './measure.js';
import { firstResponseFit } from './fit.js';
import { pagesAtBudget } from './pages.js';
import { BENCHMARK_SCHEMA, type BenchmarkResult, type BenchmarkRow, type DatasetEntry, type SessionSummary } from './schema.js';
import { biasTable } from './bias.js';
import type { SessionDedup } from './session-dedup.js';
import { TokenCache } from './token-cache.js';
import { TOKENIZER_IMPLEMENTATION } from './versions.js';

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
  session?: { dedup: SessionDedup; summary: SessionSummary };
}

export interface BenchmarkSource {
  kind: 'corpus' | 'live';
  corpus?: string;
  provider?: Dataset['provider'];
  target?: string;
}

export interface BenchmarkProgress {
  done: number;
  total: number;
  what: string;
}

/** The formats every row's savings are taken against; measured even when not asked for. */
const BASELINE_FORMATS: Record<SavingsBaseline, FormatName> = { json_pretty: 'json', json_compact: 'json-compact' };

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
    const rawChars = Buffer.byteLength(JSON.stringify(ds.raw));
    for (const level of options.levels) {
      onProgress?.({ done, total, what: `${ds.provider}/${ds.project} ${ds.kind} ${level}` });
      const value: JsonValue = datasetAtLevel(ds, level);
      const aligned = (value as JsonValue[]).length === ds.result.items.length;
      const encoded = new Map<FormatName, Encoded>();
      for (const name of measured) encoded.set(name, measureEncoding(formats.get(name)!, value, options.runs));
      for (const tk of tokenizers) {
        const cache = caches.get(tk.name)!;
        const baselineTokens = Object.fromEntries(
          SAVINGS_BASELINES.map((b) => [b, cache.count(encoded.get(BASELINE_FORMATS[b])!.text)]),
        ) as Record<SavingsBaseline, number>;
        for (const name of options.formats) {
          const e = encoded.get(name)!;
          const tokens = cache.count(e.text);
          const pages = pagesAtBudget({
            dataset: ds,
            items: value as JsonValue[],
            text: e.text,
            aligned,
            budget: options.budget,
            format: e.format,
            tokenizer: tk,
            count: cache.count,
          });
          const vs = Object.fromEntries(SAVINGS_BASELINES.map((b) => [b, savingAgainst(tokens, baselineTokens[b])])) as Record<
            SavingsBaseline,
            number
          >;
          const encoder = vs[options.savingsBaseline];
          const dedup = options.session?.dedup[name]?.[tk.name] ?? 0;
          const combined = combineSavings(dedup, encoder);
          const metadata: FormatMetadata = {
            raw_chars: rawChars,
            output_chars: e.bytes,
            pre_trim_chars: e.bytes,
            estimated_tokens: tokens,
            compression_ratio: frac(rawChars === 0 ? 1 : e.bytes / rawChars),
            format: name,
            truncated: false,
            total_items: ds.result.items.length,
            included_items: ds.result.items.length,
            chunked: pages > 1,
            total_chunks: pages,
            chunk_number: 1,
            provider_pagination: ds.result.pagination ?? null,
            provider_sort: ds.result.sort_info ?? null,
            dedup_savings_pct: frac(dedup),
            encoder_savings_pct: frac(encoder),
            combined_savings_pct: frac(combined),
            baseline: options.savingsBaseline,
            tokenizer: tk.name,
          };
          rows.push({
            provider: ds.provider,
            project: ds.project,
            dataset: ds.kind,
            label: ds.label,
            level,
            format: name,
            tokenizer: tk.name,
            tokens,
            bytes: e.bytes,
            pages,
            encode_ms: e.encode.median_ms,
            decode_ms: e.decode.median_ms,
            encode_spread_ms: [e.encode.min_ms, e.encode.max_ms],
            decode_spread_ms: [e.decode.min_ms, e.decode.max_ms],
            lossless: e.lossless,
            ...(e.reason !== undefined ? { lossless_reason: e.reason } : {}),
            savings: {
              baseline: options.savingsBaseline,
              baseline_tokens: baselineTokens[options.savingsBaseline],
              encoder: frac(encoder),
              dedup: frac(dedup),
              combined: frac(combined),
              vs: roundAll(vs),
            },
            metadata,
          });
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

  return {
    schema: BENCHMARK_SCHEMA,
    devboy: DEVBOY_VERSION,
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
    tokenizers: tokenizers.map((t) => ({ name: t.name, estimate: t.estimate, implementation: TOKENIZER_IMPLEMENTATION[t.name] })),
    formats: options.formats.map((n) => ({ name: n, media_type: FORMAT_INFO[n].mediaType, implementation: FORMAT_INFO[n].implementation })),
    datasets: datasets.map(datasetEntry),
    rows,
    heuristic_bias: biasTable(rows),
    fit,
    ...(options.session ? { session: options.session.summary } : {}),
    lossy: rows
      .filter((r) => !r.lossless && r.tokenizer === options.tokenizers[0])
      .map((r) => ({
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

export const DEVBOY_VERSION = '0.1.0';

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

const frac = roundFraction;

function roundAll<K extends string>(o: Record<K, number>): Record<K, number> {
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, frac(v as number)])) as Record<K, number>;
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
