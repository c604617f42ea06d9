import type { FormatName } from '../formats/types.js';
import type { LossReport } from '../formats/loss.js';
import type { MethodContrast } from './method-contrast.js';
import type { FormatMetadata, MeasuredBaseline, SavingsBaseline } from '../metadata/format-metadata.js';
import type { Pagination, SortInfo } from '../model/index.js';
import type { DatasetKind, ProviderName } from '../model/index.js';
import type { DetailLevel, Level } from '../trim/levels.js';
import type { TokenizerName } from '../tokens/types.js';
import type { BreakEvenEntry, ExplainerEntry } from './break-even.js';
import type { WinnerEntry } from './families.js';
import type { UnmeasuredCause } from '../replay/corpus.js';

export const BENCHMARK_SCHEMA = 'devboy.benchmark/1';

/** `--json` output; documented in docs/benchmark-schema.md. */
export interface BenchmarkResult {
  schema: typeof BENCHMARK_SCHEMA;
  devboy: string;
  source: BenchmarkSourceInfo;
  settings: {
    budget: number;
    /** `--runs`: the most timed runs per encode and decode (exactly this many when timing.mode is `fixed`). */
    runs: number;
    /** How encode and decode were timed (absent in results written before adaptive timing: fixed). */
    timing?: TimingSettings;
    /** json_compact, json_pretty, or the format a team uses today (yaml, csv, markdown-table, markdown-kv, xml). */
    savings_baseline: MeasuredBaseline;
    levels: Level[];
    formats: FormatName[];
    /** The dataset kinds this run measured (all unless narrowed with --dataset). */
    dataset_kinds: DatasetKind[];
    session?: string;
  };
  tokenizers: { name: TokenizerName; estimate: boolean; implementation: string }[];
  formats: { name: FormatName; media_type: string; implementation: string }[];
  datasets: DatasetEntry[];
  rows: BenchmarkRow[];
  /** How far the heuristic is from each real tokenizer, per format and level, over all datasets. */
  heuristic_bias: BiasEntry[];
  /** With --session: the played-back session's savings per format and tokenizer (docs/session.md). */
  session?: SessionSummary;
  /** What fits in one response at the budget, per dataset and format (docs/budget.md). */
  fit: FitEntry[];
  /**
   * Corpus recordings that could not be read or replayed (file relative to the corpus, line:col
   * when known, reason). Empty when the whole corpus was read; absent in results saved before it existed.
   */
  skipped?: { file: string; line?: number; col?: number; reason: string }[];
  /**
   * Corpus recordings that were read but feed no dataset, each with why (`cause`, a word to group
   * by, and `reason` in words): an endpoint devboy does not read, an error answer, a duplicate, ...
   * Corpus runs only; absent in results saved before it existed.
   */
  unmeasured?: { file: string; cause: UnmeasuredCause; reason: string }[];
  /**
   * How many of the corpus's recordings fed a dataset (measured), were read but not measured
   * (`unmeasured`, listed above) and were skipped (`skipped`): every recording is one of the three.
   * Corpus runs only.
   */
  recordings?: { measured: number; unmeasured: number; skipped: number };
  /**
   * Dataset x level x format cells that have no rows because the format cannot write the items at
   * that level (a lone surrogate in TOON or GCF), or the savings baseline cannot: each with why.
   * Every other cell is measured. Empty when every cell was; absent in results saved before it existed.
   */
  unmeasured_cells?: UnmeasuredCell[];
  /**
   * The same datasets under devboy-tools' published method (json_pretty baseline, bytes / 3.5) and
   * devboy's (json_compact, a real tokenizer); absent when the run lacks either tokenizer or json/json-compact.
   */
  method_contrast?: MethodContrast;
  /** Rows whose format did not round-trip, with the first difference. */
  lossy: (CellId & {
    reason: string;
    /** What the round trip lost, value by value (absent in results written before it existed). */
    loss?: LossReport;
  })[];
  /** Per dataset kind and level, the lossless format with the fewest tokens under each tokenizer (absent in older results). */
  winner_by_tokenizer?: WinnerEntry[];
  /** The prompt that teaches each measured non-JSON format, with its tokens under each tokenizer. */
  explainers?: ExplainerEntry[];
  /** After how many tool results of a kind each format repays its explainer, per level and tokenizer. */
  break_even?: BreakEvenEntry[];
  /** Written by `devboy merge`: the results this one was combined from, in order (docs/ci.md). */
  merged_from?: MergedPart[];
}

/** A dataset at a level in a format: a row's identity, less the tokenizer. */
export interface CellId {
  provider: ProviderName;
  project: string;
  dataset: DatasetKind;
  label: string;
  level: Level;
  format: FormatName;
}

/** A cell that was not measured, and why. */
export interface UnmeasuredCell extends CellId {
  reason: string;
}

/** Where a run's data came from; `provider` and `target` narrow a corpus (or name a live project). */
export interface BenchmarkSourceInfo {
  kind: 'corpus' | 'live';
  corpus?: string;
  provider?: ProviderName;
  target?: string;
}

/** One input of a merged result: its file, its source, and what it contributed. */
export interface MergedPart {
  file: string;
  source: BenchmarkSourceInfo;
  datasets: number;
  rows: number;
}

/** The first response `devboy format` would give at the budget, under the report's main tokenizer. */
export type FitEntry = {
  provider: ProviderName;
  project: string;
  dataset: DatasetKind;
  label: string;
  format: FormatName;
  tokenizer: TokenizerName;
  budget: number;
  total_items: number;
} & (
  | {
      fits: true;
      strategy: string;
      included_items: number;
      total_chunks: number;
      truncated: boolean;
      /** Items of the response at each detail level, and how many had a long text cut. */
      detail: Record<DetailLevel | 'cut', number>;
      tokens: number;
    }
  | { fits: false; reason: string }
);

export interface SessionSummary {
  file: string;
  calls: number;
  /** Calls answered by a reference to an earlier, byte-identical output. */
  hits: number;
  /** `upstream`: a proxy ledger's, the tool results as the upstream sent them. */
  baseline: SavingsBaseline | 'upstream';
  results: {
    /** `proxy`: a `devboy proxy --log` ledger, whose formats the proxy chose call by call. */
    format: FormatName | 'proxy';
    tokenizer: TokenizerName;
    dedup: number;
    encoder: number;
    combined: number;
    /** 1 - received / baseline tokens, what the model really got. */
    measured: number;
    /**
     * A proxy ledger whose calls `--level` lowered: their saving, 1 - received / baseline over them.
     * Lossy by choice, so kept out of `encoder` and `combined` (in `measured`); absent otherwise.
     */
    level?: number;
    baseline_tokens: number;
    received_tokens: number;
  }[];
}

export interface DatasetEntry {
  provider: ProviderName;
  project: string;
  dataset: DatasetKind;
  /** What was asked (method, path and query); tells apart datasets of one kind. */
  label: string;
  items: number;
  pagination: Pagination | null;
  sort: SortInfo | null;
}

export interface TimingSettings {
  /** `adaptive`: runs until `budget_ms` per encode or decode or `max_runs`; `fixed`: `max_runs` runs. */
  mode: 'adaptive' | 'fixed';
  max_runs: number;
  budget_ms: number;
}

export interface Timing {
  /** Median milliseconds per call over the timed runs. */
  median_ms: number;
  min_ms: number;
  max_ms: number;
  runs: number;
}

/** [fastest, slowest] of the timed runs, milliseconds per call. */
export type Spread = [number, number];

export interface RowSavings {
  baseline: MeasuredBaseline;
  /** Tokens of the baseline encoding of the same items (same level and tokenizer). */
  baseline_tokens: number;
  /** 1 - tokens / baseline tokens (same dataset, level and tokenizer). */
  encoder: number;
  dedup: number;
  combined: number;
  /** The encoder saving against each JSON baseline, so neither has to be recomputed. */
  vs: Record<SavingsBaseline, number>;
}

/** One dataset at one level in one format under one tokenizer (docs/benchmark-schema.md, Rows). */
export interface BenchmarkRow extends CellId {
  tokenizer: TokenizerName;
  tokens: number;
  bytes: number;
  /** Responses needed to read every item at --budget tokens under this tokenizer. */
  pages: number;
  /** Median of the timed runs after a warm-up (settings.timing), milliseconds per call. */
  encode_ms: number;
  decode_ms: number;
  encode_spread_ms: Spread;
  decode_spread_ms: Spread;
  /** Timed runs behind encode_ms and decode_ms (absent in results written before adaptive timing). */
  encode_runs?: number;
  decode_runs?: number;
  lossless: boolean;
  lossless_reason?: string;
  /**
   * When not lossless: the share of the items' leaf values that did not come back with the same type
   * and value, and the first places with what happened (src/formats/loss.ts). Absent when lossless,
   * and in results written before it existed.
   */
  loss?: LossReport;
  savings: RowSavings;
  metadata: FormatMetadata;
}

export interface BiasEntry {
  format: FormatName;
  level: Level;
  tokenizer: TokenizerName;
  /** Sums over all datasets. */
  tokens: number;
  heuristic_tokens: number;
  /** heuristic / tokens - 1: negative means the heuristic undercounts. */
  bias: number;
}

/** A row's identity: what `devboy compare` (and `--baseline`) match rows by. */
export function rowKey(r: Pick<BenchmarkRow, 'provider' | 'project' | 'dataset' | 'label' | 'level' | 'format' | 'tokenizer'>): string {
  return `${cellKey(r)} | ${r.tokenizer}`;
}

/** A dataset at a level in a format, whatever the tokenizer: what `unmeasured_cells` lists. */
export function cellKey(r: CellId): string {
  return [r.provider, r.project, r.dataset, r.label, r.level, r.format].join(' | ');
}
