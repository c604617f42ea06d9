import { FORMAT_INFO } from '../../src/formats/info.js';
import type { FormatName } from '../../src/formats/types.js';

/**
 * The fast suite (`npm test`) checks a fixed, spread-out sample of the corpus-wide grids (here), of
 * the corpus bodies (every n-th of those up to 30,000 characters: sampledExchanges in
 * corpus-bodies.ts), 500 values per codec property (PROPERTY_RUNS) and a fifth of other properties'
 * counts (scaledRuns, both in arbitraries.ts), and some of the slow interrupt cases; the full suite
 * (`npm run test:corpus`, DEVBOY_TEST_CORPUS=full) checks every cell and body, 10,000 values and
 * every case. Same code, same assertions: only how many cases.
 */
export const FULL_SUITE = process.env.DEVBOY_TEST_CORPUS === 'full';

/** Every `every`-th item starting at `offset` (every item in the corpus suite). */
export function sample<T>(items: readonly T[], every: number, offset = 0): T[] {
  return FULL_SUITE ? [...items] : items.filter((_, i) => i % every === offset % every);
}

/** The sample's size relative to the whole, for assertions about how much a grid exercised. */
export function sampleShare(every: number): number {
  return FULL_SUITE ? 1 : 1 / every;
}

/**
 * The formats a corpus-wide grid checks: every one in the corpus suite; in the fast suite every
 * candidate and one baseline in turn (`offset` picks which). The baselines go through the same
 * pipeline as the candidates and have codec tests of their own; the grid is there to catch a format
 * the pipeline mishandles, which one baseline a grid (and every baseline across the grids) does.
 */
export function sampleFormats<T extends FormatName>(names: readonly T[], offset = 0): T[] {
  if (FULL_SUITE) return [...names];
  const baselines = names.filter((n) => FORMAT_INFO[n].role === 'baseline');
  const chosen = baselines[offset % Math.max(1, baselines.length)];
  return names.filter((n) => FORMAT_INFO[n].role !== 'baseline' || n === chosen);
}
