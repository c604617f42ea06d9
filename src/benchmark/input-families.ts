import type { FormatName } from '../formats/types.js';
import { baselineFormatOf, type MeasuredBaseline } from '../metadata/format-metadata.js';
import type { TokenizerName } from '../tokens/types.js';
import { breakEvenTable, type BreakEvenEntry, type ExplainerEntry } from './break-even.js';
import type { FormatCell } from './cells.js';
import { winnersByTokenizer, type WinnerEntry } from './families.js';

/** What a caller measured of some tool results (one input, or several of one kind): plain numbers in, no benchmark rows. */
export interface MeasuredCounts {
  /** Names the measurement in the entries (e.g. the input file); `dataset` in the output. */
  label: string;
  /** What the counts are for (`full` for an input as given); `level` in the output. */
  level?: string;
  /** How many tool results the counts sum over (1 for one input). */
  results?: number;
  /** Tokens per tokenizer and format, summed over the results; the baseline's format must be among them. */
  counts: Partial<Record<TokenizerName, Partial<Record<FormatName, number>>>>;
  /** Formats that round-trip every result; a format not listed here is taken as lossless. */
  lossless?: Partial<Record<FormatName, boolean>>;
  /** The tokenizers in report order; `estimate` keeps the heuristic out of "the winner changes". */
  tokenizers: readonly { name: TokenizerName; estimate: boolean }[];
  baseline: MeasuredBaseline;
  /** Explainers counted under the same tokenizers (countExplainers), for the break-even; none: no break-even. */
  explainers?: readonly ExplainerEntry[];
}

/**
 * The winner by tokenizer family and the break-even of counts measured outside a benchmark run
 * (`devboy stats` on one input, say): the same functions the benchmark report uses, on cells built
 * from the numbers given.
 */
export function familyViewsOfCounts(m: MeasuredCounts): { winner_by_tokenizer: WinnerEntry[]; break_even: BreakEvenEntry[] } {
  const baselineFormat = baselineFormatOf(m.baseline);
  const cells: FormatCell[] = [];
  const formats: FormatName[] = [];
  for (const { name } of m.tokenizers) {
    const byFormat = m.counts[name] ?? {};
    const baselineTokens = byFormat[baselineFormat];
    if (baselineTokens === undefined)
      throw new Error(`familyViewsOfCounts: no ${baselineFormat} count under ${name} (the ${m.baseline} baseline)`);
    for (const [format, tokens] of Object.entries(byFormat) as [FormatName, number][]) {
      if (!formats.includes(format)) formats.push(format);
      cells.push({
        dataset: m.label,
        level: m.level ?? 'full',
        tokenizer: name,
        format,
        results: m.results ?? 1,
        tokens,
        baseline_tokens: baselineTokens,
        lossless: m.lossless?.[format] ?? true,
      });
    }
  }
  return {
    winner_by_tokenizer: winnersByTokenizer(cells, m.tokenizers, formats),
    break_even: m.explainers ? breakEvenTable(cells, m.explainers, m.baseline) : [],
  };
}
