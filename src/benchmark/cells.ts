import type { FormatName } from '../formats/types.js';
import type { DatasetKind } from '../model/index.js';
import type { TokenizerName } from '../tokens/types.js';
import type { Level } from '../trim/levels.js';
import type { BenchmarkRow } from './schema.js';

/**
 * One format at one dataset kind and level under one tokenizer, summed over the tool results
 * (datasets) of that kind: what the winner and the break-even are computed from, for a whole
 * benchmark run (cellsOfRows) or one measured input (src/benchmark/input-families.ts).
 */
export interface FormatCell {
  /** A dataset kind, or a caller's own label for one input. */
  dataset: DatasetKind | string;
  level: Level | string;
  tokenizer: TokenizerName;
  format: FormatName;
  /** Tool results summed (datasets of this kind). */
  results: number;
  tokens: number;
  /** Tokens of the savings baseline's encoding of the same results. */
  baseline_tokens: number;
  /** Every result round-trips in this format. */
  lossless: boolean;
}

export function cellsOfRows(rows: readonly BenchmarkRow[]): FormatCell[] {
  const cells = new Map<string, FormatCell>();
  for (const r of rows) {
    const key = [r.dataset, r.level, r.tokenizer, r.format].join('\u0000');
    let c = cells.get(key);
    if (!c) {
      c = {
        dataset: r.dataset,
        level: r.level,
        tokenizer: r.tokenizer,
        format: r.format,
        results: 0,
        tokens: 0,
        baseline_tokens: 0,
        lossless: true,
      };
      cells.set(key, c);
    }
    c.results++;
    c.tokens += r.tokens;
    c.baseline_tokens += r.savings.baseline_tokens;
    c.lossless &&= r.lossless;
  }
  return [...cells.values()];
}
