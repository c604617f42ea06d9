import type { Pagination, SortInfo } from '../model/index.js';

/** Names a saving can be taken against. */
export type SavingsBaseline = 'json_pretty' | 'json_compact';
export const SAVINGS_BASELINES: readonly SavingsBaseline[] = ['json_compact', 'json_pretty'];

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
