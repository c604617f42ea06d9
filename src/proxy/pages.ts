import { chunkResponse, planChunks, type PlanChunksOptions } from '../budget/plan-chunks.js';
import { verifyRoundTrip } from '../formats/verify.js';
import type { Format } from '../formats/types.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json/types.js';
import { int, plural } from '../text/words.js';
import type { Tokenizer } from '../tokens/types.js';

/** The line under the chunk index: how the model asks for another page. */
export function pageHint(tool: string, id: string): string {
  return `Call ${tool} with {"id": "${id}", "page": N} for page N, or with {"id": "${id}"} alone for the whole result. You may not need all pages.`;
}

/** A page sent over the budget, and why: the ledger lists each. */
export interface OverBudgetPage {
  /** 1-based, as the model asks for it. */
  page: number;
  /** The page's items, as its chunk index gives them. */
  offset: number;
  limit: number;
  /** The page as sent (label included), under the planning tokenizer. */
  tokens: number;
}

export interface Paged {
  pages: string[];
  /** The member of the result that holds the paged list; null when the result is the list. */
  member: string | null;
  /** Pages over the budget: each holds one item that does not fit a page with the chunk index. */
  over: OverBudgetPage[];
}

/** Pages, or why the result is sent whole. */
export type PagePlan = { paged: Paged } | { unpaged: string };

/**
 * A result over the budget, cut into the fewest pages by devboy's chunk planner (the one `devboy format`
 * and the benchmark's pages column use), each page a chunk's items in `format` and the chunk index. The
 * list is the result itself, or the largest list among the members of an object (a search envelope's
 * `issues` or `items`): page 1 holds the object's other members around its first chunk, in their
 * order, and the later pages the list's items alone. Every response is counted whole against the
 * budget; an item that does not fit a page with the index is a page of its own, over the budget and
 * labelled so, never cut. Every page is checked to decode to what it holds. Pages depend on the value,
 * format, tokenizer and budget only, so they are the same on every call.
 */
export function planPages(value: JsonValue, format: Format, tokenizer: Tokenizer, budget: number, hint: string): PagePlan {
  const list = listToPage(value);
  if ('why' in list) return { unpaged: list.why };
  const { member, items } = list;
  const inObject = (slice: JsonValue[]): JsonValue =>
    member === null ? slice : Object.fromEntries(Object.entries(value as JsonObject).map(([k, v]) => [k, k === member ? slice : v]));
  // Page 1 carries the object around its chunk; the planner counts every chunk as rendered.
  const valueOf = (from: number, to: number): JsonValue => (from === 0 ? inObject(items.slice(from, to)) : items.slice(from, to));
  const options: PlanChunksOptions = {
    format,
    tokenizer,
    budget,
    count: (text) => tokenizer.count(text),
    check: 'response',
    hint: member === null ? hint : `The pages hold the result's ${JSON.stringify(member)} list; its other members are on page 1. ${hint}`,
    render: (from, to) => format.encode(valueOf(from, to)),
  };
  const plan = planChunks(items, options);
  if (plan.fits_whole || plan.chunks.length < 2) return { unpaged: 'the chunk planner made one page of it' };
  const pages: string[] = [];
  const over: OverBudgetPage[] = [];
  for (let k = 0; k < plan.chunks.length; k++) {
    const c = plan.chunks[k]!;
    const holds = valueOf(c.offset, c.offset + c.limit);
    const check = verifyRoundTrip(format, holds);
    if (!check.lossless) return { unpaged: `page ${k + 1} would not decode to its items (${check.reason ?? format.name})` };
    let page = chunkResponse(items, options, plan, k);
    if (tokenizer.count(page) > budget) {
      const alone = tokenizer.count(format.encode(holds));
      page += `\n${overBudgetLabel(k + 1, c.offset, c.limit, alone, budget, tokenizer.name, member !== null && k === 0)}`;
      over.push({ page: k + 1, offset: c.offset, limit: c.limit, tokens: tokenizer.count(page) });
    }
    pages.push(page);
  }
  return { paged: { pages, member, over } };
}

/**
 * What is paged: the value when it is a list, else its largest list member (by JSON length; the first
 * of equals), the list a provider's envelope holds (Jira's `issues`, GitHub search's `items`).
 */
function listToPage(value: JsonValue): { member: string | null; items: JsonValue[] } | { why: string } {
  if (Array.isArray(value))
    return value.length >= 2 ? { member: null, items: value } : { why: `a list of ${plural(value.length, 'item')} cannot be split` };
  if (!isJsonObject(value)) return { why: 'not a list or an object' };
  let best: { member: string; items: JsonValue[]; size: number } | undefined;
  for (const [k, v] of Object.entries(value)) {
    if (!Array.isArray(v)) continue;
    const size = JSON.stringify(v).length;
    if (!best || size > best.size) best = { member: k, items: v, size };
  }
  if (!best) return { why: 'no member of the object is a list (only a list, or a list in an object, is paged)' };
  if (best.items.length < 2)
    return { why: `its largest list, ${JSON.stringify(best.member)}, has ${plural(best.items.length, 'item')} and cannot be split` };
  return { member: best.member, items: best.items };
}

/** The line a page over the budget ends with: what it holds and why it is whole. */
function overBudgetLabel(
  page: number,
  offset: number,
  limit: number,
  alone: number,
  budget: number,
  tokenizer: string,
  withObject: boolean,
): string {
  const what =
    limit === 1
      ? `it holds one item (offset=${offset})${withObject ? " and the result's other members" : ''}, ${int(alone)} ${tokenizer} tokens alone, more than fits a page with the chunk index; sent whole, not cut`
      : `the chunk planner could not fit its ${limit} items (offset=${offset})`;
  return `[devboy proxy: page ${page} is over the ${int(budget)}-token budget: ${what}]`;
}
