import type { FormatName } from '../formats/types.js';
import type { MeasuredBaseline } from '../metadata/format-metadata.js';
import type { TokenizerName } from '../tokens/types.js';
import { breakEvenTable, type BreakEvenEntry, type ExplainerEntry } from './break-even.js';
import { cellsOfRows } from './cells.js';
import { winnersByTokenizer, type WinnerEntry } from './families.js';
import type { BenchmarkRow } from './schema.js';

/**
 * The winner by tokenizer and the break-even table of a set of rows: computed by a run, and again
 * by `devboy merge` over the merged rows (a shard's winners are not the whole corpus's).
 */
export function familyViews(
  rows: readonly BenchmarkRow[],
  tokenizers: readonly { name: TokenizerName; estimate: boolean }[],
  explainers: readonly ExplainerEntry[] | undefined,
  baseline: MeasuredBaseline,
  formats: readonly FormatName[],
): { winner_by_tokenizer: WinnerEntry[]; break_even?: BreakEvenEntry[] } {
  const cells = cellsOfRows(rows);
  return {
    winner_by_tokenizer: winnersByTokenizer(cells, tokenizers, formats),
    ...(explainers ? { break_even: breakEvenTable(cells, explainers, baseline) } : {}),
  };
}
