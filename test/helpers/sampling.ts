/**
 * The fast suite (`npm test`) checks a fixed, spread-out sample of the corpus-wide grids, 500
 * values per property and one of the slow interrupt cases; the full suite (`npm run test:corpus`,
 * DEVBOY_TEST_CORPUS=full) checks every cell, 10,000 values and every case. Same code, same
 * assertions: only how many cases.
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
