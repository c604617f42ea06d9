import type { Explainer } from '../formats/explainers.js';
import type { FormatName } from '../formats/types.js';
import type { MeasuredBaseline } from '../metadata/format-metadata.js';
import type { TokenizerName } from '../tokens/types.js';
import type { FormatCell } from './cells.js';

/**
 * The number of tool results after which a format's saving per result repays the prompt that
 * teaches it: ceil(explainer tokens / (baseline tokens per result - format tokens per result)).
 * null ("never") when the format saves nothing per result. With totals over `results` results
 * the division is done on integers, so no rounding moves the answer.
 */
export function breakEven(explainerTokens: number, baselineTokens: number, formatTokens: number, results = 1): number | null {
  const saved = baselineTokens - formatTokens; // over all `results`
  if (saved <= 0) return null;
  if (explainerTokens <= 0) return 0;
  return Math.ceil((explainerTokens * results) / saved);
}

/** The explainer of a format and its tokens under each tokenizer of a run. */
export interface ExplainerEntry {
  format: FormatName;
  /** Where the text came from: docs/formats/<format>-prompt.md or the devboy.toml override. */
  source: string;
  bytes: number;
  tokens: Partial<Record<TokenizerName, number>>;
}

export interface BreakEvenEntry {
  dataset: string;
  level: string;
  format: FormatName;
  tokenizer: TokenizerName;
  /** Tool results (datasets) of this kind the averages are over. */
  results: number;
  /** The run's savings baseline (json_compact unless --savings-baseline). */
  baseline: MeasuredBaseline;
  baseline_tokens_per_result: number;
  tokens_per_result: number;
  /** baseline - format tokens per result; not positive means the format never pays. */
  saving_per_result: number;
  explainer_tokens: number;
  /** Results after which the explainer is repaid; null: never (no saving per result). */
  break_even: number | null;
  lossless: boolean;
}

export function countExplainers(
  explainers: readonly Explainer[],
  counters: readonly { name: TokenizerName; count(text: string): number }[],
): ExplainerEntry[] {
  return explainers.map((e) => ({
    format: e.format,
    source: e.source,
    bytes: Buffer.byteLength(e.text),
    tokens: Object.fromEntries(counters.map((t) => [t.name, t.count(e.text)])),
  }));
}

/** Break-even of every explained format, per dataset kind, level and tokenizer, in the cells' order. */
export function breakEvenTable(
  cells: readonly FormatCell[],
  explainers: readonly ExplainerEntry[],
  baseline: MeasuredBaseline,
): BreakEvenEntry[] {
  const byFormat = new Map(explainers.map((e) => [e.format, e]));
  const out: BreakEvenEntry[] = [];
  for (const c of cells) {
    const explainer = byFormat.get(c.format);
    const explainerTokens = explainer?.tokens[c.tokenizer];
    if (explainerTokens === undefined || c.results === 0) continue;
    out.push({
      dataset: c.dataset,
      level: c.level,
      format: c.format,
      tokenizer: c.tokenizer,
      results: c.results,
      baseline,
      baseline_tokens_per_result: round1(c.baseline_tokens / c.results),
      tokens_per_result: round1(c.tokens / c.results),
      saving_per_result: round1((c.baseline_tokens - c.tokens) / c.results),
      explainer_tokens: explainerTokens,
      break_even: breakEven(explainerTokens, c.baseline_tokens, c.tokens, c.results),
      lossless: c.lossless,
    });
  }
  return out;
}

function round1(x: number): number {
  return Math.round(x * 10) / 10;
}
