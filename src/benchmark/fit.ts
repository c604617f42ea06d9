import { datasetBudgetInput, respondWithinBudget } from '../budget/respond-within-budget.js';
import { DataError } from '../errors.js';
import type { Format } from '../formats/types.js';
import type { Dataset } from '../model/index.js';
import type { Tokenizer } from '../tokens/types.js';
import type { FitEntry } from './schema.js';

/**
 * What an agent gets in its first response at the budget: `devboy format`'s pipeline (strategy,
 * mixed detail levels, cuts, chunk index) on the dataset's model items, counted with the real
 * tokenizer through the benchmark's memoizing count.
 */
export function firstResponseFit(
  ds: Dataset,
  format: Format,
  tokenizer: Tokenizer,
  budget: number,
  count: (text: string) => number,
  /** `format.encode` of the dataset's items at the full level, when the caller has it. */
  fullText?: string,
): FitEntry {
  const base = {
    provider: ds.provider,
    project: ds.project,
    dataset: ds.kind,
    label: ds.label,
    format: format.name,
    tokenizer: tokenizer.name,
    budget,
    total_items: ds.result.items.length,
  };
  try {
    const r = respondWithinBudget(datasetBudgetInput(ds), {
      format,
      tokenizer,
      budget,
      count,
      ...(fullText !== undefined ? { fullText } : {}),
    });
    return {
      ...base,
      fits: true,
      strategy: r.strategy,
      included_items: r.metadata.included_items,
      total_chunks: r.metadata.total_chunks,
      truncated: r.metadata.truncated,
      detail: r.detail,
      tokens: r.metadata.estimated_tokens,
    };
  } catch (err) {
    if (!(err instanceof DataError)) throw err;
    return { ...base, fits: false, reason: err.message };
  }
}
