import { isCandidate } from './info.js';
import { FORMAT_NAMES, type FormatName } from './types.js';

/**
 * The candidate formats that round-trip (a baseline is measured, never chosen), fewest tokens first,
 * a tie to the earlier format in the registry:
 * how `convert --to auto` and `stats` choose, so that on one input they choose alike.
 */
export function rankLossless<T extends { format: FormatName; tokens: number; lossless: boolean }>(candidates: readonly T[]): T[] {
  return candidates.filter((c) => c.lossless && isCandidate(c.format)).sort(byRank);
}

/**
 * The order of that ranking: fewest tokens first, a tie to the earlier format in the registry. For a
 * caller that checks the round trip lazily, from the first up (`devboy proxy`), and so cannot filter first.
 */
export function byRank(a: { format: FormatName; tokens: number }, b: { format: FormatName; tokens: number }): number {
  return a.tokens - b.tokens || FORMAT_NAMES.indexOf(a.format) - FORMAT_NAMES.indexOf(b.format);
}
