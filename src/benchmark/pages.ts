import { planChunks } from '../budget/plan-chunks.js';
import { verifyRoundTrip } from '../formats/verify.js';
import type { Format } from '../formats/types.js';
import type { JsonValue } from '../json/types.js';
import type { DatasetKind, ModelItem } from '../model/index.js';
import type { Tokenizer } from '../tokens/types.js';

export interface PagesInput {
  /** What the items are (absent: a list that is no provider's items). */
  kind?: DatasetKind;
  /** The items at the row's level, and their encoding in `format` (the row's text). */
  items: JsonValue[];
  text: string;
  /** The model items items[i] came from, for the index summaries; absent when not 1:1 (raw GitHub review comments vs threads). */
  models?: readonly ModelItem[];
  budget: number;
  format: Format;
  tokenizer: Tokenizer;
  /** The benchmark's memoizing count: the whole list was counted already, so a list that fits costs nothing. */
  count: (text: string) => number;
}

export interface Pages {
  pages: number;
  /** When a page of a format with known losses does not round-trip: which page, and what it lost. */
  loss?: string;
}

/**
 * Responses an agent reads to see every item at the budget: the budget pipeline's chunk plan, each
 * response being one chunk plus the chunk index and hint, within budget under this tokenizer
 * (docs/budget.md, "For the benchmark"). A reader gets the pages, not the whole list, so a format
 * that can lose data is checked page by page too: a list can round-trip whole while one of its
 * pages (another mix of keys) does not. Formats whose round trip is exact for every JSON value need
 * no such check: a page is a JSON value.
 */
export function pagesAtBudget(input: PagesInput): Pages {
  const plan = planChunks(input.items, {
    ...(input.kind ? { kind: input.kind } : {}),
    format: input.format,
    tokenizer: input.tokenizer,
    budget: input.budget,
    level: 'raw',
    ...(input.models && input.models.length === input.items.length ? { models: input.models } : {}),
    count: input.count,
    wholeText: input.text,
  });
  if (plan.total_chunks <= 1 || input.format.roundTrip === 'exact') return { pages: plan.total_chunks };
  for (const [k, c] of plan.chunks.entries()) {
    const check = verifyRoundTrip(input.format, input.items.slice(c.offset, c.offset + c.limit));
    if (!check.lossless) return { pages: plan.total_chunks, loss: `page ${k + 1} of ${plan.chunks.length}: ${check.reason}` };
  }
  return { pages: plan.total_chunks };
}
