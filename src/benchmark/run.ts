import { FORMAT_INFO, loadFormat, type FormatName, type FormatOptions } from '../formats/registry.js';
import { BASELINE_FORMAT, baselineFormatOf, type MeasuredBaseline } from '../metadata/format-metadata.js';
import type { Dataset, DatasetKind } from '../model/index.js';
import { loadTokenizer, type TokenizerName } from '../tokens/registry.js';
import type { Level } from '../trim/levels.js';
import { warmUp } from './measure.js';
import { measureDataset, type RunTally, type RunTools } from './measure-dataset.js';
import type { BenchmarkResult, SessionSummary } from './schema.js';
import { assembleResult, type Measured } from './assemble.js';
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
  const tools = await loadRunTools(options);
  const tally: RunTally = { entries: [], rows: [], fit: [], unmeasuredCells: [] };
  const stream = Array.isArray(input) ? undefined : (input as DatasetStream);
  const total = stream
    ? stream.total
    : (input as readonly Dataset[]).filter((d) => options.kinds.includes(d.kind)).length * options.levels.length;
  let done = 0;
  // Progress counts datasets × levels of an array, and groups of a stream.
  const beforeLevel = (what: string) => {
    onProgress?.({ done, total, what });
    if (!stream) done++;
  };
  const measure = (ds: Dataset) => {
    if (options.kinds.includes(ds.kind)) measureDataset(tools, ds, tally, beforeLevel);
  };

  if (stream) {
    const batches = stream.batches[Symbol.asyncIterator]();
    for (;;) {
      const next = await tools.clock.runAsync('load', () => batches.next());
      if (next.done) break;
      for (const ds of next.value) measure(ds);
      done++;
    }
  } else {
    for (const ds of input as readonly Dataset[]) measure(ds);
  }
  onProgress?.({ done, total, what: 'done' });
  return assembleResult(measuredOf(tools, source, tally));
}

/** The codecs and tokenizers of a run, loaded and warmed up once. */
async function loadRunTools(options: BenchmarkOptions): Promise<RunTools> {
  const clock: Clock = options.clock ?? NO_CLOCK;
  const savingsFormat = baselineFormatOf(options.savingsBaseline);
  // The formats every row's savings are taken against are measured even when not asked for.
  const measured = unique([...options.formats, ...Object.values(BASELINE_FORMAT), savingsFormat]);
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
  return { options, clock, formats, measured, savingsFormat, tokenizers, caches, timing, fitTokenizer, fitCount };
}

/** What the run measured, with the settings and source that say how. */
function measuredOf(tools: RunTools, source: BenchmarkSource, tally: RunTally): Measured {
  const { options, tokenizers } = tools;
  const explainers = options.explainers?.length ? countExplainers(options.explainers, tokenizers) : undefined;
  return {
    devboy: devboyVersion(),
    source: {
      kind: source.kind,
      ...(source.corpus ? { corpus: source.corpus } : {}),
      ...(source.provider ? { provider: source.provider } : {}),
      ...(source.target ? { target: source.target } : {}),
    },
    settings: settingsOf(options, tools.timing),
    tokenizers: tokenizers.map((t) => ({ name: t.name, estimate: t.estimate, implementation: tokenizerImplementation(t.name) })),
    formats: options.formats.map((n) => ({ name: n, media_type: FORMAT_INFO[n].mediaType, implementation: FORMAT_INFO[n].implementation })),
    datasets: tally.entries,
    rows: tally.rows,
    skipped: (source.skipped ?? []).map((s) => ({
      file: s.file,
      ...(s.line !== undefined ? { line: s.line } : {}),
      ...(s.col !== undefined ? { col: s.col } : {}),
      reason: s.reason,
    })),
    ...recordingsOf(source),
    unmeasured_cells: tally.unmeasuredCells,
    fit: tally.fit,
    ...(options.session ? { session: options.session.summary } : {}),
    ...(explainers ? { explainers } : {}),
  };
}

function settingsOf(options: BenchmarkOptions, timing: TimingPlan): Measured['settings'] {
  return {
    budget: options.budget,
    runs: options.runs,
    timing: { mode: timing.budgetMs > 0 ? 'adaptive' : 'fixed', max_runs: timing.maxRuns, budget_ms: timing.budgetMs },
    savings_baseline: options.savingsBaseline,
    levels: options.levels,
    formats: options.formats,
    dataset_kinds: options.kinds,
    ...(options.session ? { session: options.session.summary.file } : {}),
  };
}

/** Corpus runs: every recording measured, not measured (with why) or skipped. */
function recordingsOf(source: BenchmarkSource): Pick<Measured, 'unmeasured' | 'recordings'> {
  if (!source.recordings) return {};
  return {
    unmeasured: source.recordings.unmeasured.map((u) => ({ file: u.file, cause: u.cause, reason: u.reason })),
    recordings: {
      measured: source.recordings.measured,
      unmeasured: source.recordings.unmeasured.length,
      skipped: (source.skipped ?? []).length,
    },
  };
}

function unique<T>(xs: T[]): T[] {
  return [...new Set(xs)];
}
