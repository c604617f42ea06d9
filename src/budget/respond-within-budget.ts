import { DataError, UsageError } from '../errors.js';
import type { Format } from '../formats/types.js';
import type { JsonValue } from '../json/types.js';
import {
  baselineText,
  buildFormatMetadata,
  type FormatMetadata,
  type MetadataFacts,
  type SavingsBaseline,
} from '../metadata/format-metadata.js';
import { itemAt, itemsOf, subList, type Dataset, type ItemList, type Pagination, type SortInfo } from '../model/index.js';
import type { Tokenizer } from '../tokens/types.js';
import { DETAIL_LEVELS, itemAtLevel, itemsAtLevel, LEAST_DETAIL, perDetailLevel, type DetailLevel } from '../trim/levels.js';
import type { AlgorithmName } from './algorithms/choose.js';
import { chunkIndexText, DEFAULT_HINT, withIndex, type ChunkRange, type IndexForm, type IndexSpec } from './chunks/index-text.js';
import { packChunks } from './chunks/pack.js';
import { chunkSummary, itemNoun } from './chunks/summary.js';
import { providerJsonOf } from './metadata.js';
import { readingOrder, STRATEGIES, type StrategyName } from './strategies/strategy.js';
import { resolveStrategy } from './strategies/resolver.js';
import { planItem } from './tree/item-plan.js';
import type { RenderedItem } from './tree/render-selection.js';
import { trimChunk } from './trim-chunk.js';

/** Model items with their kind, and what the provider said about them. */
export type BudgetInput = ItemList & {
  /** The provider's own JSON for the items, when known: for raw_chars and the savings baseline. */
  raw?: readonly JsonValue[];
  /** raw[i] is items[i] as the provider sent it (false for GitHub review threads, built from comments). */
  rawAligned?: boolean;
  pagination?: Pagination;
  sort?: SortInfo;
};

/** A dataset as the pipeline's input: its model items, with the provider's raw items for the baseline. */
export function datasetBudgetInput(d: Dataset): BudgetInput {
  return {
    ...itemsOf(d),
    raw: d.raw,
    rawAligned: d.raw.length === d.result.items.length,
    ...(d.result.pagination ? { pagination: d.result.pagination } : {}),
    ...(d.result.sort_info ? { sort: d.result.sort_info } : {}),
  };
}

export interface BudgetOptions {
  format: Format;
  tokenizer: Tokenizer;
  /** Tokens the response may take under `tokenizer`; absent: no limit. */
  budget?: number;
  /** Default: the built-in strategy for the kind. */
  strategy?: StrategyName;
  /** 1-based chunk to return. */
  chunk?: number;
  count?: (text: string) => number;
  /** The line telling the agent how to ask for another chunk. */
  hint?: string;
  baseline?: SavingsBaseline;
  /** Force one trimming algorithm (benchmarks, tests); default: chosen by tree size. */
  algorithm?: AlgorithmName;
  /** `format.encode` of the items at the full level, when the caller has it (the benchmark does). */
  fullText?: string;
}

export interface BudgetResult {
  content: string;
  metadata: FormatMetadata;
  strategy: StrategyName;
  /** Item positions (in the list as given) in this response, in the order they appear. */
  included: number[];
  /** Detail each included item kept, in the same order. */
  levels: { level: DetailLevel; cut: boolean }[];
  /** Items of this response at each detail level, and how many had a text cut. */
  detail: Record<DetailLevel | 'cut', number>;
  chunks: ChunkRange[];
  indexForm?: IndexForm;
  algorithm?: AlgorithmName;
}

/**
 * devboy format's pipeline: the items encoded in `format`; when that is over the budget, the
 * chunk of the strategy's reading order that was asked for, trimmed to fit, with the chunk index.
 * Every response it returns is within the budget under the tokenizer it was given, counted on the
 * exact text returned; when not even one item fits, it throws a DataError and returns nothing.
 */
export function respondWithinBudget(input: BudgetInput, options: BudgetOptions): BudgetResult {
  return budgetResponses(input, options).chunk(options.chunk ?? 1);
}

/** Every response of one list at one budget, each the one respondWithinBudget returns for that chunk. */
export interface BudgetResponses {
  /** Chunks the list takes: 1 when it is sent whole (within the budget, or no budget). */
  totalChunks: number;
  /** The response for 1-based chunk `n`; a UsageError when there is no such chunk. */
  chunk(n: number): BudgetResult;
}

/**
 * The pipeline for a caller that reads several chunks of one list (a walk through chunks 1..N):
 * the list is encoded, counted and planned once, and each chunk asked for is only trimmed. Asking
 * respondWithinBudget for each chunk instead encodes and plans the whole list again every time,
 * which makes a walk quadratic in the list's length. Throws the DataError respondWithinBudget
 * throws when an item does not fit any response.
 */
export function budgetResponses(input: BudgetInput, options: Omit<BudgetOptions, 'chunk'>): BudgetResponses {
  const run = startResponse(input, options);
  if (options.budget === undefined || run.preTrimTokens <= options.budget || input.items.length === 0)
    return { totalChunks: 1, chunk: (n) => wholeResponse(run, n) };
  const layout = layChunks(run, options.budget);
  return { totalChunks: layout.chunks.length, chunk: (n) => trimmedChunk(run, layout, n) };
}

/** What every response of one request shares: the items, how they are counted, and the facts of their metadata. */
interface ResponseRun {
  input: BudgetInput;
  options: Omit<BudgetOptions, 'chunk'>;
  count: (text: string) => number;
  strategyName: StrategyName;
  /** The items at full detail, encoded: the response when it fits, and the size before trimming. */
  preTrim: string;
  preTrimTokens: number;
  facts: Omit<MetadataFacts, 'outputBytes' | 'tokens' | 'truncated' | 'includedItems' | 'totalChunks' | 'chunkNumber' | 'baselineTokens'>;
  /** Tokens of the baseline's text of the items at these positions, as the provider sent them. */
  baselineOf: (indexes: readonly number[]) => number;
}

function startResponse(input: BudgetInput, options: Omit<BudgetOptions, 'chunk'>): ResponseRun {
  const { format, tokenizer } = options;
  const count = options.count ?? ((t: string) => tokenizer.count(t));
  const baseline = options.baseline ?? 'json_compact';
  const fullValues: JsonValue[] = itemsAtLevel(input, 'full');
  const preTrim = options.fullText ?? format.encode(fullValues);
  const preTrimTokens = count(preTrim);
  const rawValues = input.raw ?? fullValues;
  // The baseline is the included items as the provider sent them, so a chunk is never credited with
  // the items it leaves to other chunks. This path has no dedup: combined = encoder.
  const facts = {
    format: format.name,
    tokenizer: tokenizer.name,
    rawBytes: Buffer.byteLength(JSON.stringify(rawValues)),
    preTrimBytes: Buffer.byteLength(preTrim),
    totalItems: input.items.length,
    ...(input.pagination ? { pagination: input.pagination } : {}),
    ...(input.sort ? { sort: input.sort } : {}),
    baseline,
  };
  const rawOf = providerJsonOf(input, fullValues);
  return {
    input,
    options,
    count,
    strategyName: options.strategy ?? resolveStrategy(input.kind).strategy,
    preTrim,
    preTrimTokens,
    facts,
    baselineOf: (indexes) => count(baselineText(rawOf(indexes), baseline)),
  };
}

/** Every item at full detail, as encoded: the response when it is within the budget (or there is none). */
function wholeResponse(run: ResponseRun, chunkNumber: number): BudgetResult {
  const { items } = run.input;
  if (chunkNumber !== 1) throw new UsageError(`no chunk ${chunkNumber}: the response fits in one (1 chunk)`);
  const all = items.map((_, i) => i);
  return {
    content: run.preTrim,
    metadata: buildFormatMetadata({
      ...run.facts,
      outputBytes: Buffer.byteLength(run.preTrim),
      tokens: run.preTrimTokens,
      truncated: false,
      includedItems: items.length,
      totalChunks: 1,
      chunkNumber: 1,
      baselineTokens: run.baselineOf(all),
    }),
    strategy: run.strategyName,
    included: all,
    levels: all.map(() => ({ level: 'full', cut: false })),
    detail: { ...perDetailLevel(0), full: items.length, cut: 0 },
    chunks: [{ offset: 0, limit: items.length }],
  };
}

/** The chunks of the strategy's reading order, packed at the least detail with room for their index. */
interface ChunkLayout {
  budget: number;
  values: number[];
  order: number[];
  spec: IndexSpec;
  chunks: ChunkRange[];
  form: IndexForm | undefined;
  /** The line that ends a trimmed response that is not chunked. */
  note: (detail: BudgetResult['detail']) => string;
  nothingFits: (what: string) => DataError;
}

function layChunks(run: ResponseRun, budget: number): ChunkLayout {
  const { input: list, options, count } = run;
  const { kind, items } = list;
  const { format, tokenizer } = options;
  const strategy = STRATEGIES[run.strategyName];
  const values = strategy.itemValues(list);
  const order = readingOrder(values);
  const minimal = order.map((i) => itemAtLevel(itemAt(list, i), LEAST_DETAIL));
  const spec: IndexSpec = {
    total: items.length,
    noun: (n) => itemNoun(kind, n),
    order: strategy.order,
    hint: options.hint ?? DEFAULT_HINT,
    summary: (c) => chunkSummary(subList(list, order.slice(c.offset, c.offset + c.limit))),
  };
  const note = (detail: BudgetResult['detail']) => trimNote(detail, budget, tokenizer.name, items.length);
  const indexFor = (chunks: readonly ChunkRange[], current: number, form: IndexForm) =>
    chunks.length <= 1 ? note({ ...perDetailLevel(0), [LEAST_DETAIL]: items.length, cut: 0 }) : chunkIndexText(chunks, current, spec, form);
  const packed = packChunks({
    count: order.length,
    sizes: minimal.map((m) => Buffer.byteLength(JSON.stringify(m))),
    render: (from, to) => format.encode(minimal.slice(from, to)),
    index: indexFor,
    budget,
    tokens: count,
    check: 'response',
    mustFit: true,
  });
  const nothingFits = (what: string) => new DataError(`nothing fits in ${budget} ${tokenizer.name} tokens: ${what} (raise --budget)`);
  if (packed.oversized.length > 0) {
    const o = packed.oversized[0]!;
    const index = count(
      chunkIndexText(
        packed.chunks,
        packed.chunks.findIndex((c) => c.offset === o.item),
        spec,
        packed.form ?? 'brief',
      ),
    );
    throw nothingFits(
      `${itemNoun(kind, 1)} ${o.item + 1} of the reading order alone at minimal detail takes ${o.tokens} tokens and the chunk index ${index} more`,
    );
  }
  return { budget, values, order, spec, chunks: packed.chunks, form: packed.form, note, nothingFits };
}

/** The chunk asked for: its items planned by value, trimmed to fit with the chunk index (or the trim note). */
function trimmedChunk(run: ResponseRun, layout: ChunkLayout, chunkNumber: number): BudgetResult {
  const { input: list, options, count } = run;
  const { format, tokenizer } = options;
  const { budget, chunks, order, values, spec, note } = layout;
  if (!Number.isInteger(chunkNumber) || chunkNumber < 1 || chunkNumber > chunks.length) {
    throw new UsageError(
      `no chunk ${chunkNumber}: the response has ${chunks.length} chunk${chunks.length === 1 ? '' : 's'} at a budget of ${budget} ${tokenizer.name} tokens`,
    );
  }
  const here = chunks[chunkNumber - 1]!;
  const members = order.slice(here.offset, here.offset + here.limit);
  const strategy = STRATEGIES[run.strategyName];
  const valueTokens = emptyAware(format, count);
  const textTokens = (text: string) => Math.max(1, count(JSON.stringify(text)) - 2);
  const plans = members.map((i) => planItem(itemAt(list, i), i, values[i]!, strategy, valueTokens, textTokens));
  const single = chunks.length === 1;
  const index = single ? '' : chunkIndexText(chunks, chunkNumber - 1, spec, layout.form ?? 'elided');
  const trimmed = trimChunk({
    kind: list.kind,
    plans,
    format,
    budget,
    count,
    respond: (rendered, content) => withIndex(content, single ? note(detailOf(rendered)) : index),
    ...(options.algorithm ? { algorithm: options.algorithm } : {}),
  });
  if (!trimmed) throw layout.nothingFits(`chunk ${chunkNumber} at minimal detail with its index is over`);
  const detail = detailOf(trimmed.items);
  const included = trimmed.items.map((r) => r.index);
  return {
    content: trimmed.text,
    metadata: buildFormatMetadata({
      ...run.facts,
      outputBytes: Buffer.byteLength(trimmed.text),
      tokens: trimmed.tokens,
      truncated: true,
      includedItems: included.length,
      totalChunks: chunks.length,
      chunkNumber,
      baselineTokens: run.baselineOf(included),
    }),
    strategy: run.strategyName,
    included,
    levels: trimmed.items.map((r) => ({ level: r.level, cut: r.cut })),
    detail,
    chunks,
    ...(single ? {} : { indexForm: layout.form ?? 'elided' }),
    ...(trimmed.algorithm ? { algorithm: trimmed.algorithm } : {}),
  };
}

function detailOf(items: readonly RenderedItem[]): BudgetResult['detail'] {
  const d: BudgetResult['detail'] = { ...perDetailLevel(0), cut: 0 };
  for (const i of items) {
    d[i.level]++;
    if (i.cut) d.cut++;
  }
  return d;
}

/** The line a trimmed response that is not chunked ends with: what was shortened, and how to get the rest. */
function trimNote(d: BudgetResult['detail'], budget: number, tokenizer: string, total: number): string {
  const parts = DETAIL_LEVELS.filter((l) => d[l] > 0).map((l) => (l === DETAIL_LEVELS[0] ? `${d[l]} at ${l} detail` : `${d[l]} ${l}`));
  const cut = d.cut > 0 ? `, ${d.cut} with text cut` : '';
  return `[trimmed to fit ${budget} ${tokenizer} tokens: ${total} item${total === 1 ? '' : 's'}, ${parts.join(', ')}${cut}; ask for one item to read all of it]`;
}

/** Tokens one value adds to a list in `format`: a one-item list less an empty one. */
function emptyAware(format: Format, count: (text: string) => number): (value: JsonValue) => number {
  const empty = count(format.encode([]));
  return (value) => Math.max(1, count(format.encode([value])) - empty);
}
