import { planChunks } from '../budget/plan-chunks.js';
import { lossReport, unreadableLoss, type LossReport } from '../formats/loss.js';
import { asWritten, verifyRoundTrip, type RoundTrip } from '../formats/verify.js';
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
  /** UTF-8 bytes of each item's JSON, asked for only when the list needs pages (shared by formats and tokenizers). */
  sizes?: () => readonly number[];
  /** The chunk texts of `items` in `format`, shared by the plans under every tokenizer. */
  renders?: PageRenders;
  /**
   * Whether to check that each page round-trips (formats with known losses): the caller need not
   * ask when the whole list already does not, as the row is lossy either way. Default true.
   */
  checkPages?: boolean;
}

/**
 * One list's chunks encoded in one format, and whether each round-trips: each tokenizer plans its
 * own pages, and the plans ask for many of the same chunks (the planner's first guesses, the pages
 * they agree on), which are then encoded and checked once.
 */
export class PageRenders {
  private readonly texts = new Map<number, string>();
  private readonly verdicts = new Map<number, RoundTrip>();

  constructor(
    private readonly format: Format,
    private readonly items: readonly JsonValue[],
  ) {}

  render = (from: number, to: number): string => {
    const key = from * (this.items.length + 1) + to;
    let text = this.texts.get(key);
    if (text === undefined) this.texts.set(key, (text = this.format.encode(this.items.slice(from, to))));
    return text;
  };

  check(from: number, to: number): RoundTrip {
    const key = from * (this.items.length + 1) + to;
    let verdict = this.verdicts.get(key);
    if (verdict === undefined) {
      verdict = verifyRoundTrip(this.format, this.items.slice(from, to), this.render(from, to));
      this.verdicts.set(key, verdict);
    }
    return verdict;
  }

  /** What a page that does not round-trip lost (decoded again: only for the one page a row reports). */
  lossOf(from: number, to: number): LossReport {
    const items = this.items.slice(from, to);
    try {
      return lossReport(items, this.format.decode(asWritten(this.render(from, to))));
    } catch (err) {
      return unreadableLoss(items, (err as Error).message);
    }
  }
}

export interface Pages {
  pages: number;
  /** When a page of a format with known losses does not round-trip: which page, and what it lost. */
  loss?: string;
  /** That page's loss, value by value. */
  report?: LossReport;
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
  const renders = input.renders ?? new PageRenders(input.format, input.items);
  const plan = planChunks(input.items, {
    ...(input.kind ? { kind: input.kind } : {}),
    format: input.format,
    tokenizer: input.tokenizer,
    budget: input.budget,
    level: 'raw',
    ...(input.models && input.models.length === input.items.length ? { models: input.models } : {}),
    count: input.count,
    wholeText: input.text,
    ...(input.sizes ? { sizes: input.sizes } : {}),
    render: renders.render,
  });
  if (plan.total_chunks <= 1 || input.format.roundTrip === 'exact' || input.checkPages === false) return { pages: plan.total_chunks };
  for (const [k, c] of plan.chunks.entries()) {
    const check = renders.check(c.offset, c.offset + c.limit);
    if (!check.lossless)
      return {
        pages: plan.total_chunks,
        loss: `page ${k + 1} of ${plan.chunks.length}: ${check.reason}`,
        report: renders.lossOf(c.offset, c.offset + c.limit),
      };
  }
  return { pages: plan.total_chunks };
}
