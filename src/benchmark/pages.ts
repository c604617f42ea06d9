import { planChunks } from '../budget/plan-chunks.js';
import type { Format } from '../formats/types.js';
import type { JsonValue } from '../json/types.js';
import type { Dataset } from '../model/index.js';
import type { Tokenizer } from '../tokens/types.js';

export interface PagesInput {
  dataset: Dataset;
  /** The items at the row's level, and their encoding in `format` (the row's text). */
  items: JsonValue[];
  text: string;
  /** Whether items[i] is dataset.result.items[i] (not so for raw GitHub review comments vs threads). */
  aligned: boolean;
  budget: number;
  format: Format;
  tokenizer: Tokenizer;
  /** The benchmark's memoizing count: the whole list was counted already, so a list that fits costs nothing. */
  count: (text: string) => number;
  /** UTF-8 bytes of each item's JSON, asked for only when the list needs pages (shared by formats and tokenizers). */
  sizes?: () => readonly number[];
}

/**
 * Responses an agent reads to see every item at the budget: the budget pipeline's chunk plan, each
 * response being one chunk plus the chunk index and hint, within budget under this tokenizer
 * (docs/budget.md, "For the benchmark").
 */
export function pagesAtBudget(input: PagesInput): number {
  return planChunks(input.items, {
    kind: input.dataset.kind,
    format: input.format,
    tokenizer: input.tokenizer,
    budget: input.budget,
    level: 'raw',
    ...(input.aligned ? { models: input.dataset.result.items } : {}),
    count: input.count,
    wholeText: input.text,
    ...(input.sizes ? { sizes: input.sizes } : {}),
  }).total_chunks;
}
