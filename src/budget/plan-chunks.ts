import type { Format } from '../formats/types.js';
import type { JsonValue } from '../json/types.js';
import { listOf, sliceList, type DatasetKind, type ModelItem } from '../model/index.js';
import type { Tokenizer, TokenizerName } from '../tokens/types.js';
import { itemsAtLevel, type Level } from '../trim/levels.js';
import { chunkIndexText, DEFAULT_HINT, withIndex, type ChunkRange, type IndexForm, type IndexSpec } from './chunks/index-text.js';
import { packChunks } from './chunks/pack.js';
import { chunkSummary, itemNoun } from './chunks/summary.js';

export interface PlanChunksOptions {
  /** What the items are, for the index's nouns and summaries; absent for a list that is no provider's items. */
  kind?: DatasetKind;
  format: Format;
  tokenizer: Tokenizer;
  /** Tokens one response may take under `tokenizer`. */
  budget: number;
  /** A detail level: the items are model items and are rendered at it. `raw` or absent: encoded as given. */
  level?: Level;
  /** Model items in the same order as `items`, for the chunk summaries when `items` are raw JSON. */
  models?: readonly ModelItem[];
  /** Counts tokens; pass a memoizing one to share counts with the caller. Default: tokenizer.count. */
  count?: (text: string) => number;
  /** The line telling the agent how to ask for a chunk. */
  hint?: string;
  /** `format.encode` of the whole list, when the caller has it already (the benchmark does). */
  wholeText?: string;
  /**
   * UTF-8 bytes of each value's JSON (what the packer guesses with), when the caller has them: the
   * benchmark plans the same items in every format and under every tokenizer. Asked for only when
   * the list does not fit whole.
   */
  sizes?: () => readonly number[];
  /**
   * The content of the chunk of values [from, to), default `format.encode` of them: the benchmark passes
   * what it encoded already (it plans the same list under several tokenizers), `devboy proxy` the first
   * chunk inside the object the list came in. Only for raw items (no `level`): they are the values.
   */
  render?: (from: number, to: number) => string;
  /**
   * How each response is checked against the budget: `parts` (the default: content, index and a join
   * margin counted apart, a count saved per chunk; the benchmark's pages column) or `response` (each
   * response counted whole, as it is sent: `devboy proxy`, which promises every page within the budget).
   */
  check?: 'parts' | 'response';
}

export interface ChunkPlan {
  /** Responses an agent reads to see every item (see docs/budget.md for the exact definition). */
  total_chunks: number;
  chunks: ChunkRange[];
  /** The whole encoded list fits in one response, no index needed. */
  fits_whole: boolean;
  /** Items larger than a response by themselves; each counts as ceil(tokens / room) responses. */
  oversized_items: number;
  /** Their positions: each is a chunk of its own whose response is over the budget. */
  oversized: number[];
  index_form: IndexForm | null;
  budget: number;
  tokenizer: TokenizerName;
}

/**
 * How many responses of at most `budget` tokens it takes to hand every item to an agent at one
 * level, in the listed order: each response is one chunk's items encoded in `format`, plus the chunk
 * index and the hint. The benchmark's `pages` column.
 */
export function planChunks(items: readonly JsonValue[] | readonly ModelItem[], options: PlanChunksOptions): ChunkPlan {
  const count = options.count ?? ((text: string) => options.tokenizer.count(text));
  const { values, spec } = prepare(items, options);
  const base = { budget: options.budget, tokenizer: options.tokenizer.name };
  const encodeRange = rangeEncoder(values, options);
  const wholeTokens = count(options.wholeText ?? encodeRange(0, values.length));
  if (wholeTokens <= options.budget || values.length === 0) {
    return {
      ...base,
      total_chunks: 1,
      chunks: [{ offset: 0, limit: values.length }],
      fits_whole: true,
      oversized_items: 0,
      oversized: [],
      index_form: null,
    };
  }
  const packed = packChunks({
    count: values.length,
    sizes: options.sizes?.() ?? values.map((v) => Buffer.byteLength(JSON.stringify(v))),
    render: encodeRange,
    index: (chunks, current, form) => (chunks.length <= 1 ? '' : chunkIndexText(chunks, current, spec, form)),
    budget: options.budget,
    tokens: count,
    wholeTokens,
    check: options.check ?? 'parts',
  });
  let total = packed.chunks.length;
  if (packed.oversized.length > 0) {
    const indexCost = count(chunkIndexText(packed.chunks, 0, spec, packed.form ?? 'elided'));
    const room = Math.max(1, options.budget - indexCost);
    for (const o of packed.oversized) total += Math.ceil(o.tokens / room) - 1;
  }
  return {
    ...base,
    total_chunks: total,
    chunks: packed.chunks,
    fits_whole: false,
    oversized_items: packed.oversized.length,
    oversized: packed.oversized.map((o) => o.item),
    index_form: packed.form ?? null,
  };
}

/**
 * The response an agent reads for chunk `k` (0-based) of a plan: the chunk's items encoded, and the
 * chunk index when there is more than one chunk. What planChunks checked against the budget.
 */
export function chunkResponse(
  items: readonly JsonValue[] | readonly ModelItem[],
  options: PlanChunksOptions,
  plan: ChunkPlan,
  k: number,
): string {
  const { values, spec } = prepare(items, options);
  const c = plan.chunks[k]!;
  const content = rangeEncoder(values, options)(c.offset, c.offset + c.limit);
  return plan.chunks.length <= 1 ? content : withIndex(content, chunkIndexText(plan.chunks, k, spec, plan.index_form ?? 'elided'));
}

/** The content of a chunk: `render` where the caller gave one for raw items, else the format's encoding of the slice. */
function rangeEncoder(values: readonly JsonValue[], options: PlanChunksOptions): (from: number, to: number) => string {
  return options.render && (options.level === undefined || options.level === 'raw')
    ? options.render
    : (from: number, to: number) => options.format.encode(values.slice(from, to));
}

function prepare(items: readonly JsonValue[] | readonly ModelItem[], options: PlanChunksOptions): { values: JsonValue[]; spec: IndexSpec } {
  const detail = options.level !== undefined && options.level !== 'raw' ? options.level : undefined;
  // Model items are of `options.kind`: the caller read them as that kind.
  const modelItems = detail ? (items as readonly ModelItem[]) : options.models?.length === items.length ? options.models : undefined;
  const models = modelItems && options.kind ? listOf(options.kind, modelItems) : undefined;
  const values: JsonValue[] = detail && models ? itemsAtLevel(models, detail) : (items as JsonValue[]);
  const spec: IndexSpec = {
    total: values.length,
    noun: (n: number) => itemNoun(options.kind, n),
    order: 'as listed',
    hint: options.hint ?? DEFAULT_HINT,
    ...(models ? { summary: (c: ChunkRange) => chunkSummary(sliceList(models, c.offset, c.offset + c.limit)) } : {}),
  };
  return { values, spec };
}
