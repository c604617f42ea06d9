import { isCandidate } from '../formats/info.js';
import { FORMAT_NAMES, type FormatName } from '../formats/types.js';
import type { TokenizerName } from '../tokens/types.js';
import type { FormatCell } from './cells.js';

/** Per dataset kind and level: the lossless format with the fewest tokens under each tokenizer. */
export interface WinnerEntry {
  dataset: string;
  level: string;
  /** Tool results (datasets) summed. */
  results: number;
  winners: {
    tokenizer: TokenizerName;
    /** null when no format is lossless here. */
    format: FormatName | null;
    tokens: number;
    /** The next lossless format and its tokens, to show the margin. */
    runner_up?: { format: FormatName; tokens: number };
  }[];
  /** Real tokenizers (the heuristic aside) do not all pick the same format. */
  changes: boolean;
}

/**
 * Winners per dataset kind and level, tokenizers in `tokenizers` order. Ties go to the format
 * listed first in `order` (the run's formats, so the primary tokenizer's winner is the report's
 * recommendation); formats that lose data in any result of the cell, or were not measured on every
 * one (a format that cannot write a result's items), do not compete, nor do the
 * baselines (YAML, CSV, Markdown, XML: measured, never recommended). Plain inputs:
 * the cells can come from a benchmark's rows (cellsOfRows) or from counts of one input, one result.
 */
export function winnersByTokenizer(
  cells: readonly FormatCell[],
  tokenizers: readonly { name: TokenizerName; estimate: boolean }[],
  order: readonly FormatName[] = FORMAT_NAMES,
): WinnerEntry[] {
  const groups = new Map<string, FormatCell[]>();
  for (const c of cells) {
    const key = `${c.dataset}\u0000${c.level}`;
    const list = groups.get(key);
    if (list) list.push(c);
    else groups.set(key, [c]);
  }
  const rank = (f: FormatName) => order.indexOf(f);
  const out: WinnerEntry[] = [];
  for (const group of groups.values()) {
    // A format not measured on every result of the cell (it cannot write one) sums fewer: it does not compete.
    const results = Math.max(...group.map((c) => c.results));
    const winners = tokenizers.map(({ name }) => {
      const ranked = group
        .filter((c) => c.tokenizer === name && c.lossless && c.results === results && isCandidate(c.format))
        .sort((a, b) => a.tokens - b.tokens || rank(a.format) - rank(b.format));
      const [first, second] = ranked;
      return {
        tokenizer: name,
        format: first?.format ?? null,
        tokens: first?.tokens ?? 0,
        ...(second ? { runner_up: { format: second.format, tokens: second.tokens } } : {}),
      };
    });
    const real = new Set(tokenizers.filter((t) => !t.estimate).map((t) => t.name));
    const picked = new Set(winners.filter((w) => real.has(w.tokenizer)).map((w) => w.format));
    out.push({ dataset: group[0]!.dataset, level: group[0]!.level, results, winners, changes: picked.size > 1 });
  }
  return out;
}
