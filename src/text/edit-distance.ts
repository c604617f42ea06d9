/**
 * Optimal string alignment distance: insertions, deletions, substitutions and swaps of two adjacent
 * characters each cost 1, so a typo (`convrt`, `bench`, `betamax_betamax`) is close to what was meant.
 */
export function editDistance(a: string, b: string): number {
  let before: number[] = [];
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      let v = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, before[j - 2]! + 1);
      current[j] = v;
    }
    before = previous;
    previous = current;
  }
  return previous[b.length]!;
}
