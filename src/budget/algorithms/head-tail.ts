import type { FlatTree, Selection } from '../tree/trim-tree.js';

/** Share of the budget spent from the front of the root's children; the rest goes from the back. */
export const HEAD_SHARE = 0.3;

/**
 * Head+tail in one linear pass, for trees too large for anything that sorts: fill the root's
 * children from the first one on, each depth-first (an exclusive node takes its first alternative
 * that fits), until 30% of the budget is spent; then from the last child backwards with the rest.
 * Values are not looked at: only order and size.
 */
export function headTail(tree: FlatTree, budget: number): Selection | undefined {
  if (tree.weight[0]! > budget) return undefined;
  const kept = new Uint8Array(tree.size);
  kept[0] = 1;
  const total = budget - tree.weight[0]!;

  const fill = (i: number, left: number): number => {
    if (tree.weight[i]! > left) return left;
    kept[i] = 1;
    left -= tree.weight[i]!;
    for (const c of tree.children[i]!) {
      left = fill(c, left);
      if (tree.exclusive[i] && kept[c]) break;
    }
    return left;
  };

  const items = tree.children[0]!;
  if (tree.exclusive[0]) {
    const first = items.find((c) => tree.weight[c]! <= total);
    if (first !== undefined) fill(first, total);
    return kept;
  }
  let left = total;
  let head = 0;
  const headLimit = total * HEAD_SHARE;
  for (; head < items.length && total - left < headLimit; head++) {
    const c = items[head]!;
    if (tree.weight[c]! > left) break;
    left = fill(c, left);
  }
  for (let t = items.length - 1; t >= head; t--) {
    const c = items[t]!;
    if (tree.weight[c]! > left) break;
    left = fill(c, left);
  }
  return kept;
}
