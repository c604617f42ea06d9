import { chunkResponse, planChunks, type PlanChunksOptions } from '../budget/plan-chunks.js';
import { verifyRoundTrip } from '../formats/verify.js';
import type { Format } from '../formats/types.js';
import type { JsonValue } from '../json/types.js';
import type { Tokenizer } from '../tokens/types.js';

/** The line under the chunk index: how the model asks for another page. */
export function pageHint(tool: string, id: string): string {
  return `Call ${tool} with {"id": "${id}", "page": N} for page N, or with {"id": "${id}"} alone for the whole result. You may not need all pages.`;
}

/**
 * A list over the budget, cut into the fewest pages by devboy's chunk planner (the one `devboy format`
 * and the benchmark's pages column use), each page the chunk's items in `format` and the chunk index.
 * Null when the value is no list, fits whole, or a page would not decode back to its items (every
 * page is checked, like the whole result). Pages depend on the value, format, tokenizer and budget
 * only, so they are the same on every call.
 */
export function planPages(value: JsonValue, format: Format, tokenizer: Tokenizer, budget: number, hint: string): string[] | null {
  if (!Array.isArray(value) || value.length < 2) return null;
  const options: PlanChunksOptions = { format, tokenizer, budget, hint };
  const plan = planChunks(value, options);
  if (plan.fits_whole || plan.chunks.length < 2) return null;
  const pages: string[] = [];
  for (let k = 0; k < plan.chunks.length; k++) {
    const c = plan.chunks[k]!;
    if (!verifyRoundTrip(format, value.slice(c.offset, c.offset + c.limit)).lossless) return null;
    pages.push(chunkResponse(value, options, plan, k));
  }
  return pages;
}
