import type { Format } from '../formats/types.js';
import type { JsonValue } from '../json/types.js';
import { combineSavings, savingAgainst, type FormatMetadata, type SavingsBaseline } from '../metadata/format-metadata.js';
import type { Discussion, Pagination, SortInfo } from '../model/index.js';
import type { DatasetKind, ModelItem } from '../providers/types.js';
import type { TokenizerName } from '../tokens/types.js';

export interface MetadataFacts {
  content: string;
  contentTokens: number;
  format: Format;
  tokenizer: TokenizerName;
  /** Compact JSON bytes of the provider's payload as given. */
  rawChars: number;
  /** Bytes of the whole list encoded at full detail, before any trimming. */
  preTrimChars: number;
  truncated: boolean;
  totalItems: number;
  includedItems: number;
  totalChunks: number;
  chunkNumber: number;
  pagination?: Pagination;
  sort?: SortInfo;
  /** What the included items cost as the baseline (see docs/budget.md), same tokenizer. */
  baselineTokens: number;
  baseline: SavingsBaseline;
}

/**
 * Seed 001's 19 fields. This path has no dedup, so the whole saving is the encoder's (and the
 * trimming's): combined = encoder. The baseline is the included items as the provider sent them,
 * so a chunk is never credited with the items it leaves to other chunks.
 */
export function budgetMetadata(f: MetadataFacts): FormatMetadata {
  const outputChars = Buffer.byteLength(f.content);
  const encoder = savingAgainst(f.contentTokens, f.baselineTokens);
  return {
    raw_chars: f.rawChars,
    output_chars: outputChars,
    pre_trim_chars: f.truncated ? f.preTrimChars : outputChars,
    estimated_tokens: f.contentTokens,
    compression_ratio: f.rawChars === 0 ? 0 : outputChars / f.rawChars,
    format: f.format.name,
    truncated: f.truncated,
    total_items: f.totalItems,
    included_items: f.includedItems,
    chunked: f.totalChunks > 1,
    total_chunks: f.totalChunks,
    chunk_number: f.chunkNumber,
    provider_pagination: f.pagination ?? null,
    provider_sort: f.sort ?? null,
    dedup_savings_pct: 0,
    encoder_savings_pct: encoder,
    combined_savings_pct: combineSavings(0, encoder),
    baseline: f.baseline,
    tokenizer: f.tokenizer,
  };
}

export function baselineText(values: readonly JsonValue[], baseline: SavingsBaseline): string {
  return baseline === 'json_pretty' ? JSON.stringify(values, null, 2) : JSON.stringify(values);
}

/**
 * The provider's own JSON for some of the items: the savings baseline of a response holding them.
 * GitHub threads are built from review comments, so a thread's JSON is its comments' JSON (by id).
 * Without provider JSON, the items themselves at full detail stand in.
 */
export function providerJsonOf(
  input: { kind: DatasetKind; items: readonly ModelItem[]; raw?: readonly JsonValue[]; rawAligned?: boolean },
  fullValues: readonly JsonValue[],
): (indexes: readonly number[]) => JsonValue[] {
  const raw = input.raw;
  if (!raw) return (indexes) => indexes.map((i) => fullValues[i]!);
  if (input.rawAligned !== false) return (indexes) => indexes.map((i) => raw[i]!);
  if (input.kind === 'discussions') {
    const byId = new Map<string, JsonValue>();
    for (const r of raw) if (r && typeof r === 'object' && !Array.isArray(r) && r['id'] !== undefined) byId.set(String(r['id']), r);
    return (indexes) =>
      indexes.flatMap((i) =>
        (input.items[i] as Discussion).comments.map((c) => byId.get(c.id)).filter((v): v is JsonValue => v !== undefined),
      );
  }
  return (indexes) => (indexes.length === input.items.length ? [...raw] : indexes.map((i) => fullValues[i]!));
}
