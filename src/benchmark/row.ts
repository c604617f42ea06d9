import type { FormatName } from '../formats/types.js';
import {
  buildFormatMetadata,
  combineSavings,
  roundFraction,
  savingAgainst,
  SAVINGS_BASELINES,
  type MeasuredBaseline,
  type SavingsBaseline,
} from '../metadata/format-metadata.js';
import type { Dataset } from '../model/index.js';
import type { TokenizerName } from '../tokens/types.js';
import type { Level } from '../trim/levels.js';
import type { Encoded } from './measure.js';
import type { BenchmarkRow } from './schema.js';

/** Everything one row is derived from: what was measured, never recomputed here. */
export interface RowFacts {
  dataset: Dataset;
  /** Compact JSON bytes of the dataset's provider items. */
  rawBytes: number;
  level: Level;
  format: FormatName;
  encoded: Pick<Encoded, 'bytes' | 'lossless' | 'reason' | 'loss' | 'encode' | 'decode'>;
  tokenizer: TokenizerName;
  tokens: number;
  /** Tokens of the same items in each JSON baseline encoding and in the savings baseline's, same level and tokenizer. */
  baselineTokens: Record<SavingsBaseline, number> & Partial<Record<MeasuredBaseline, number>>;
  pages: number;
  savingsBaseline: MeasuredBaseline;
  /** From a played-back session; 0 without one. */
  dedup: number;
}

/** One benchmark row and its FormatMetadata, from measured facts alone (pure: tests plant values). */
export function buildRow(f: RowFacts): BenchmarkRow {
  const { dataset: ds, encoded: e } = f;
  const vs = Object.fromEntries(SAVINGS_BASELINES.map((b) => [b, savingAgainst(f.tokens, f.baselineTokens[b])])) as Record<
    SavingsBaseline,
    number
  >;
  const baselineTokens = f.baselineTokens[f.savingsBaseline];
  if (baselineTokens === undefined) throw new Error(`buildRow: no ${f.savingsBaseline} tokens`);
  const encoder = savingAgainst(f.tokens, baselineTokens);
  const items = ds.result.items.length;
  return {
    provider: ds.provider,
    project: ds.project,
    dataset: ds.kind,
    label: ds.label,
    level: f.level,
    format: f.format,
    tokenizer: f.tokenizer,
    tokens: f.tokens,
    bytes: e.bytes,
    pages: f.pages,
    encode_ms: e.encode.median_ms,
    decode_ms: e.decode.median_ms,
    encode_spread_ms: [e.encode.min_ms, e.encode.max_ms],
    decode_spread_ms: [e.decode.min_ms, e.decode.max_ms],
    encode_runs: e.encode.runs,
    decode_runs: e.decode.runs,
    lossless: e.lossless,
    ...(e.reason !== undefined ? { lossless_reason: e.reason } : {}),
    ...(e.loss ? { loss: e.loss } : {}),
    savings: {
      baseline: f.savingsBaseline,
      baseline_tokens: baselineTokens,
      encoder: roundFraction(encoder),
      dedup: roundFraction(f.dedup),
      combined: roundFraction(combineSavings(f.dedup, encoder)),
      vs: Object.fromEntries(Object.entries(vs).map(([k, v]) => [k, roundFraction(v as number)])) as Record<SavingsBaseline, number>,
    },
    // A benchmark row is the whole list in one piece: nothing trimmed, every item included.
    metadata: buildFormatMetadata({
      outputBytes: e.bytes,
      tokens: f.tokens,
      format: f.format,
      tokenizer: f.tokenizer,
      rawBytes: f.rawBytes,
      truncated: false,
      totalItems: items,
      includedItems: items,
      totalChunks: f.pages,
      chunkNumber: 1,
      ...(ds.result.pagination ? { pagination: ds.result.pagination } : {}),
      ...(ds.result.sort_info ? { sort: ds.result.sort_info } : {}),
      baseline: f.savingsBaseline,
      baselineTokens,
      dedup: f.dedup,
    }),
  };
}
