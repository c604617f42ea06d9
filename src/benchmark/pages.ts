import type { JsonValue } from '../json/types.js';
import type { Format } from '../formats/types.js';

export interface PagesInput {
  items: JsonValue[];
  /** Tokens of the whole encoded list under the tokenizer in question. */
  tokens: number;
  budget: number;
  format: Format;
  count: (text: string) => number;
}

/**
 * Responses needed to read every item at the budget. One when the whole list fits; otherwise
 * a lower bound (tokens / budget, rounded up) until the budget pipeline's chunker answers it.
 */
export function pagesAtBudget(input: PagesInput): number {
  if (input.tokens <= input.budget) return 1;
  return Math.ceil(input.tokens / input.budget);
}
