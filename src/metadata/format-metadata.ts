import { baselineFormats, type BaselineFormatName } from '../formats/info.js';
import type { FormatName } from '../formats/types.js';
import type { JsonValue } from '../json/types.js';
import type { Pagination, SortInfo } from '../model/index.js';

/** Names a saving can be taken against (devboy-tools' names), and the format each one is. */
export const BASELINE_FORMAT = { json_compact: 'json-compact', json_pretty: 'json' } as const satisfies Record<string, FormatName>;
export type SavingsBaseline = keyof typeof BASELINE_FORMAT;
export const SAVINGS_BASELINES = Object.keys(BASELINE_FORMAT) as SavingsBaseline[];

/**
 * What the measuring commands (benchmark, stats) can take savings against: the JSON baselines, or
 * the format a team uses today (`--savings-baseline yaml`), so every change reads against it.
 * Rows keep their savings against both JSON baselines too (`savings.vs`).
 */
export type MeasuredBaseline = SavingsBaseline | BaselineFormatName;
export const MEASURED_BASELINES: MeasuredBaseline[] = [...SAVINGS_BASELINES, ...baselineFormats()];

/** The format a savings baseline is. */
export function baselineFormatOf(baseline: MeasuredBaseline): FormatName {
  return baseline in BASELINE_FORMAT ? BASELINE_FORMAT[baseline as SavingsBaseline] : (baseline as BaselineFormatName);
}

/** The baseline's text of a value: the same bytes its format's encoder writes. */
export function baselineText(value: JsonValue, baseline: SavingsBaseline): string {
  return BASELINE_FORMAT[baseline] === 'json' ? JSON.stringify(value, null, 2) : JSON.stringify(value);
}

/**
 * The 19 fields every formatted result carries (seed 001, devboy-tools' FormatMetadata), with the
 * same names and meanings. Sizes are UTF-8 bytes (the seed calls them chars); percentages are
 * fractions (0.25 = 25% fewer tokens than the baseline); `Option` fields are null when unknown.
 */
export interface FormatMetadata {
  /** Size of the raw JSON input (compact JSON of the provider's payload), UTF-8 bytes. */
  raw_chars: number;
  /** Size of the formatted output, UTF-8 bytes. */
  output_chars: number;
  /** Size of the output before budget trimming; equals output_chars when nothing was trimmed. */
  pre_trim_chars: number;
  /** Tokens of the output under `tokenizer` (an estimate only when tokenizer is "heuristic"). */
  estimated_tokens: number;
  /** output_chars / raw_chars (< 1 means smaller). */
  compression_ratio: number;
  format: string;
  /** Whether budget trimming removed or shortened anything. */
  truncated: boolean;
  total_items: number | null;
  included_items: number;
  chunked: boolean;
  total_chunks: number;
  /** 1-based. */
  chunk_number: number;
  provider_pagination: Pagination | null;
  provider_sort: SortInfo | null;
  dedup_savings_pct: number;
  encoder_savings_pct: number;
  combined_savings_pct: number;
  baseline: SavingsBaseline | string;
  tokenizer: string;
}

export const FORMAT_METADATA_FIELDS = [
  'raw_chars',
  'output_chars',
  'pre_trim_chars',
  'estimated_tokens',
  'compression_ratio',
  'format',
  'truncated',
  'total_items',
  'included_items',
  'chunked',
  'total_chunks',
  'chunk_number',
  'provider_pagination',
  'provider_sort',
  'dedup_savings_pct',
  'encoder_savings_pct',
  'combined_savings_pct',
  'baseline',
  'tokenizer',
] as const satisfies readonly (keyof FormatMetadata)[];

/** Seed 001's reporting rule: dedup and encoder savings combine multiplicatively. */
export function combineSavings(dedup: number, encoder: number): number {
  return dedup + (1 - dedup) * encoder;
}

/** 1 - tokens/baseline; 0 when the baseline is empty. Negative means larger than the baseline. */
export function savingAgainst(tokens: number, baselineTokens: number): number {
  return baselineTokens === 0 ? 0 : 1 - tokens / baselineTokens;
}

/** Six decimals: a hundredth of a basis point, far below what token counts resolve; keeps reports stable. */
export function roundFraction(x: number): number {
  return Math.round(x * 1e6) / 1e6;
}

/** What a formatted result is made of; `buildFormatMetadata` derives the 19 fields from it. */
export interface MetadataFacts {
  /** UTF-8 bytes of the output. */
  outputBytes: number;
  /** Tokens of the output under `tokenizer`. */
  tokens: number;
  format: string;
  tokenizer: string;
  /** Compact JSON bytes of the provider's payload as given. */
  rawBytes: number;
  /** Whether budget trimming removed or shortened anything. */
  truncated: boolean;
  /** UTF-8 bytes of the whole list before trimming; only meaningful when `truncated`. */
  preTrimBytes?: number;
  totalItems: number | null;
  includedItems: number;
  totalChunks: number;
  chunkNumber: number;
  pagination?: Pagination;
  sort?: SortInfo;
  baseline: MeasuredBaseline;
  /** Tokens of the same items in the baseline encoding, same tokenizer. */
  baselineTokens: number;
  /** Saving of repeated-output deduplication, a fraction; 0 without a played-back session. */
  dedup?: number;
}

/**
 * The one FormatMetadata builder (benchmark rows and `devboy format` alike). Fractions are rounded
 * with roundFraction. raw_chars 0 (nothing to compare with) gives compression_ratio 1: no
 * compression is claimed.
 */
export function buildFormatMetadata(f: MetadataFacts): FormatMetadata {
  const dedup = f.dedup ?? 0;
  const encoder = savingAgainst(f.tokens, f.baselineTokens);
  return {
    raw_chars: f.rawBytes,
    output_chars: f.outputBytes,
    pre_trim_chars: f.truncated && f.preTrimBytes !== undefined ? f.preTrimBytes : f.outputBytes,
    estimated_tokens: f.tokens,
    compression_ratio: roundFraction(f.rawBytes === 0 ? 1 : f.outputBytes / f.rawBytes),
    format: f.format,
    truncated: f.truncated,
    total_items: f.totalItems,
    included_items: f.includedItems,
    chunked: f.totalChunks > 1,
    total_chunks: f.totalChunks,
    chunk_number: f.chunkNumber,
    provider_pagination: f.pagination ?? null,
    provider_sort: f.sort ?? null,
    dedup_savings_pct: roundFraction(dedup),
    encoder_savings_pct: roundFraction(encoder),
    combined_savings_pct: roundFraction(combineSavings(dedup, encoder)),
    baseline: f.baseline,
    tokenizer: f.tokenizer,
  };
}
