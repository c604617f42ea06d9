/** Items by a key, each group in the items' order: one pass, where a filter per key would be quadratic. */
export function groupBy<T>(xs: readonly T[], key: (x: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const x of xs) {
    const k = key(x);
    const group = groups.get(k);
    if (group) group.push(x);
    else groups.set(k, [x]);
  }
  return groups;
}
