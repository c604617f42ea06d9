import { FORMAT_INFO, loadFormat, type FormatName, type FormatOptions } from '../formats/registry.js';
import type { Format } from '../formats/types.js';
import { DataError } from '../errors.js';
import type { JsonValue } from '../json/types.js';
import {
  BASELINE_FORMAT,
  baselineFormatOf,
  SAVINGS_BASELINES,
  type MeasuredBaseline,
  type SavingsBaseline,
} from '../metadata/format-metadata.js';
import type { Dataset, DatasetKind } from '../model/index.js';
import { loadTokenizer, type TokenizerName } from '../tokens/registry.js';
import type { Tokenizer } from '../tokens/types.js';
import { datasetAtLevel, type Level } from '../trim/levels.js';
import { measureEncoding, warmUp, type Encoded } from './measure.js';
import { buildRow } from './row.js';
import { firstResponseFit } from './fit.js';
import { PageRenders, pagesAtBudget, type Pages } from './pages.js';
import {
  type BenchmarkResult,
  type BenchmarkRow,
  type DatasetEntry,
  type FitEntry,
  type SessionSummary,
  type UnmeasuredCell,
} from './schema.js';
import { assembleResult } from './assemble.js';
import type { TranscriptDedup } from './transcript-dedup.js';
import { TokenCache } from './token-cache.js';
import { NO_CLOCK, type Clock, type PhaseClock } from './phases.js';
import type { TimingPlan } from './timing.js';
import type { SkippedRecording, UnmeasuredRecording } from '../replay/corpus.js';
import { devboyVersion } from '../versions.js';
import { tokenizerImplementation } from './versions.js';
import type { Explainer } from '../formats/explainers.js';
import { countExplainers } from './break-even.js';

export interface BenchmarkOptions {
  kinds: DatasetKind[];
  levels: Level[];
  formats: FormatName[];
  tokenizers: TokenizerName[];
  budget: number;
  /** Most timed runs per encode and decode; exactly this many when `timeBudgetMs` is 0. */
  runs: number;
  /** Timed runs of one encode or decode stop after about this long (adaptive timing); default DEFAULT_TIME_BUDGET_MS. */
  timeBudgetMs?: number;
  savingsBaseline: MeasuredBaseline;
  formatOptions?: FormatOptions;
  /** A played-back session: its dedup saving per tokenizer goes into every row (0 without one). */
  session?: { dedup: TranscriptDedup; summary: SessionSummary };
  /** The prompts that teach the measured formats: counted, and their break-even computed (docs/tokenizers.md). */
  explainers?: Explainer[];
  /** Where the time goes, for `npm run bench` (no accounting without one). */
  clock?: PhaseClock;
}

/** Per encode or decode of one dataset, level and format: enough for fast codecs' runs, little for slow ones. */
export const DEFAULT_TIME_BUDGET_MS = 1;

export interface BenchmarkSource {
  kind: 'corpus' | 'live';
  corpus?: string;
  /** Corpus recordings that could not be read or replayed, listed in the result. */
  skipped?: SkippedRecording[];
  /** Corpus runs: how many recordings fed a dataset, and those read but not measured (filled while the corpus is read). */
  recordings?: { measured: number; unmeasured: UnmeasuredRecording[] };
  provider?: Dataset['provider'];
  target?: string;
}

/**
 * Datasets read a group at a time (a corpus project), so that only one group is in memory:
 * `total` groups, each yielded in the order of the result.
 */
export interface DatasetStream {
  total: number;
  batches: AsyncIterable<readonly Dataset[]>;
}

export interface BenchmarkProgress {
  /** Datasets × levels done of an array; groups (corpus projects) done of a stream. */
  done: number;
  total: number;
  what: string;
}

/** The formats every row's savings are taken against; measured even when not asked for. */
const BASELINE_FORMATS: Record<SavingsBaseline, FormatName> = BASELINE_FORMAT;

/**
 * Measure every dataset at every level in every format under every tokenizer. Each text is
 * encoded once and counted once per tokenizer; timings re-run encode and decode on purpose.
 * Work goes dataset by dataset and keeps counts, not texts: what one dataset needed (its texts,
 * the token caches) is dropped before the next, so memory does not grow with the corpus beyond
 * the rows themselves.
 */
export async function runBenchmark(
  input: readonly Dataset[] | DatasetStream,
  source: BenchmarkSource,
  options: BenchmarkOptions,
  onProgress?: (p: BenchmarkProgress) => void,
): Promise<BenchmarkResult> {
  const clock: Clock = options.clock ?? NO_CLOCK;
  const savingsFormat = baselineFormatOf(options.savingsBaseline);
  const measured = unique([...options.formats, ...Object.values(BASELINE_FORMATS), savingsFormat]);
  const formats = new Map(
    await clock.runAsync('load', () => Promise.all(measured.map(async (n) => [n, await loadFormat(n, options.formatOptions)] as const))),
  );
  const tokenizers = await clock.runAsync('load', () => Promise.all(options.tokenizers.map((n) => loadTokenizer(n))));
  clock.run('timing', () => warmUp([...formats.values()]));
  const caches = new Map(tokenizers.map((t) => [t.name, new TokenCache(t, clock)]));
  const timing: TimingPlan = { maxRuns: options.runs, budgetMs: options.timeBudgetMs ?? DEFAULT_TIME_BUDGET_MS };
  // The fit view under the report's main tokenizer: the first real one, else the heuristic.
  const fitTokenizer = tokenizers.find((t) => !t.estimate) ?? tokenizers[0]!;
  const fitCount = caches.get(fitTokenizer.name)!.count;

  const entries: DatasetEntry[] = [];
  const rows: BenchmarkRow[] = [];
  const fit: FitEntry[] = [];
  const unmeasuredCells: UnmeasuredCell[] = [];
  const stream = Array.isArray(input) ? undefined : (input as DatasetStream);
  const total = stream
    ? stream.total
    : (input as readonly Dataset[]).filter((d) => options.kinds.includes(d.kind)).length * options.levels.length;
  let done = 0;

  const measureDataset = (ds: Dataset) => {
    entries.push(datasetEntry(ds));
    // The formats that could not write this dataset at some level.
    const unwritten = new Set<FormatName>();
    const rawBytes = Buffer.byteLength(JSON.stringify(ds.raw));
    const fitFormat = (name: FormatName, fullText?: string, fullTokens?: number) =>
      fit.push(
        clock.run('fit', () =>
          firstResponseFit(ds, formats.get(name)!, fitTokenizer, options.budget, knowing(fullText, fullTokens, fitCount), fullText),
        ),
      );
    for (const level of options.levels) {
      onProgress?.({ done, total, what: `${ds.provider}/${ds.project} ${ds.kind} ${level}` });
      const items = datasetAtLevel(ds, level);
      const { encoded, cannot } = encodeEach(measured, formats, items, timing, clock);
      // Every row's savings are taken against the baselines: a level one of them cannot write has no rows.
      const baseline = unwritableBaseline(cannot, options.savingsBaseline);
      const written = options.formats.filter((name) => {
        const why = cannot.get(name) ?? baseline;
        if (why !== undefined) unmeasuredCells.push({ ...cellOf(ds), level, format: name, reason: why });
        return why === undefined;
      });
      for (const name of options.formats) if (!written.includes(name)) unwritten.add(name);
      // The planner's size guesses: the same for every format and tokenizer, computed when a list needs pages.
      let sizes: number[] | undefined;
      const sizesOf = () => (sizes ??= items.map((v) => Buffer.byteLength(JSON.stringify(v))));
      const tokens = new Map(
        tokenizers.map((t) => {
          // Kept for the dataset: the fit view and the baselines ask for some of them again.
          const { keep } = caches.get(t.name)!;
          return [t, new Map([...encoded].map(([name, e]) => [name, keep(e.text)] as const))] as const;
        }),
      );
      // Pages format by format, so that the tokenizers' plans share one format's chunk texts and
      // page checks, which are dropped before the next format's.
      const pages = new Map<FormatName, Map<Tokenizer, Pages>>();
      for (const format of written) {
        const e = encoded.get(format)!;
        const renders = new PageRenders(e.format, items);
        const byTokenizer = new Map<Tokenizer, Pages>();
        for (const tokenizer of tokenizers) {
          byTokenizer.set(
            tokenizer,
            clock.run('pages', () =>
              pagesAtBudget({
                kind: ds.kind,
                items,
                text: e.text,
                models: ds.result.items,
                budget: options.budget,
                format: e.format,
                tokenizer,
                count: knowing(e.text, tokens.get(tokenizer)!.get(format)!, caches.get(tokenizer.name)!.count),
                sizes: sizesOf,
                renders,
                // A list that does not round-trip whole makes a lossy row whatever its pages do.
                checkPages: e.lossless,
              }),
            ),
          );
        }
        pages.set(format, byTokenizer);
      }
      for (const tokenizer of tokenizers) {
        const counted = tokens.get(tokenizer)!;
        const baselineTokens = {
          ...(Object.fromEntries(SAVINGS_BASELINES.map((b) => [b, counted.get(BASELINE_FORMATS[b])!])) as Record<SavingsBaseline, number>),
          [options.savingsBaseline]: counted.get(savingsFormat)!,
        };
        for (const format of written) {
          const e = encoded.get(format)!;
          const { pages: n, loss, report } = pages.get(format)!.get(tokenizer)!;
          rows.push(
            buildRow({
              dataset: ds,
              rawBytes,
              level,
              format,
              // The whole list round-trips, yet a page may not: then the row is not lossless either.
              encoded: loss && e.lossless ? { ...e, lossless: false, reason: loss, ...(report ? { loss: report } : {}) } : e,
              tokenizer: tokenizer.name,
              tokens: counted.get(format)!,
              baselineTokens,
              pages: n,
              savingsBaseline: options.savingsBaseline,
              dedup: options.session?.dedup[format]?.[tokenizer.name] ?? 0,
            }),
          );
        }
        // The fit view starts from the full level's text: measured here, so it is not encoded again.
        if (level === 'full' && tokenizer === fitTokenizer) {
          for (const name of written) fitFormat(name, encoded.get(name)!.text, counted.get(name)!);
        }
      }
      if (!stream) done++;
    }
    // A format that could not write the dataset at some level has no fit: its cells say why.
    if (!options.levels.includes('full')) for (const name of options.formats) if (!unwritten.has(name)) fitFormat(name);
    // A chunk shares text with its own dataset only: what was counted for this one is dropped.
    for (const cache of caches.values()) cache.clear();
  };

  if (stream) {
    const batches = stream.batches[Symbol.asyncIterator]();
    for (;;) {
      const next = await clock.runAsync('load', () => batches.next());
      if (next.done) break;
      for (const ds of next.value) if (options.kinds.includes(ds.kind)) measureDataset(ds);
      done++;
    }
  } else {
    for (const ds of input as readonly Dataset[]) if (options.kinds.includes(ds.kind)) measureDataset(ds);
  }
  onProgress?.({ done, total, what: 'done' });
  const explainers = options.explainers?.length ? countExplainers(options.explainers, tokenizers) : undefined;

  return assembleResult({
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
      timing: { mode: timing.budgetMs > 0 ? 'adaptive' : 'fixed', max_runs: timing.maxRuns, budget_ms: timing.budgetMs },
      savings_baseline: options.savingsBaseline,
      levels: options.levels,
      formats: options.formats,
      dataset_kinds: options.kinds,
      ...(options.session ? { session: options.session.summary.file } : {}),
    },
    tokenizers: tokenizers.map((t) => ({ name: t.name, estimate: t.estimate, implementation: tokenizerImplementation(t.name) })),
    formats: options.formats.map((n) => ({ name: n, media_type: FORMAT_INFO[n].mediaType, implementation: FORMAT_INFO[n].implementation })),
    datasets: entries,
    rows,
    skipped: (source.skipped ?? []).map((s) => ({
      file: s.file,
      ...(s.line !== undefined ? { line: s.line } : {}),
      ...(s.col !== undefined ? { col: s.col } : {}),
      reason: s.reason,
    })),
    ...(source.recordings
      ? {
          unmeasured: source.recordings.unmeasured.map((u) => ({ file: u.file, cause: u.cause, reason: u.reason })),
          recordings: {
            measured: source.recordings.measured,
            unmeasured: source.recordings.unmeasured.length,
            skipped: (source.skipped ?? []).length,
          },
        }
      : {}),
    unmeasured_cells: unmeasuredCells,
    fit,
    ...(options.session ? { session: options.session.summary } : {}),
    ...(explainers ? { explainers } : {}),
  });
}

/**
 * Every format's encoding of one level's items, or why a format cannot write them (a lone surrogate
 * in TOON or GCF): `convert --to auto` passes over such a format and stats lists it; a run lists the
 * cell and measures the rest.
 */
function encodeEach(
  names: readonly FormatName[],
  formats: ReadonlyMap<FormatName, Format>,
  items: JsonValue,
  timing: TimingPlan,
  clock: Clock,
): { encoded: Map<FormatName, Encoded>; cannot: Map<FormatName, string> } {
  const encoded = new Map<FormatName, Encoded>();
  const cannot = new Map<FormatName, string>();
  for (const name of names) {
    try {
      encoded.set(name, measureEncoding(formats.get(name)!, items, timing, clock));
    } catch (err) {
      if (!(err instanceof DataError)) throw err;
      cannot.set(name, err.message);
    }
  }
  return { encoded, cannot };
}

/** Why no row of a level can be built when a savings baseline (the run's, or a JSON one every row keeps) cannot write its items. */
function unwritableBaseline(cannot: ReadonlyMap<FormatName, string>, savingsBaseline: MeasuredBaseline): string | undefined {
  const baselines = unique<MeasuredBaseline>([savingsBaseline, ...SAVINGS_BASELINES]);
  const stuck = baselines.find((b) => cannot.has(baselineFormatOf(b)));
  return stuck === undefined ? undefined : `the savings baseline ${stuck} cannot write it: ${cannot.get(baselineFormatOf(stuck))!}`;
}

function cellOf(ds: Dataset): Omit<UnmeasuredCell, 'level' | 'format' | 'reason'> {
  return { provider: ds.provider, project: ds.project, dataset: ds.kind, label: ds.label };
}

/** A count that already knows one text's answer (the whole list the planner starts from). */
function knowing(text: string | undefined, tokens: number | undefined, count: (t: string) => number): (t: string) => number {
  return text === undefined || tokens === undefined ? count : (t) => (t === text ? tokens : count(t));
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
