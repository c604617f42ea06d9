import type { FlatTree, Selection } from '../tree/trim-tree.js';

/**
 * Hierarchical weighted fair queueing: each kept node shares what is left of the budget among its
 * children in proportion to the value their subtrees hold (weighted max-min fairness: a child that
 * needs less than its share gets what it needs and the rest is shared again), and each child does
 * the same below it. An exclusive node gives its whole share to the one alternative that promises
 * most for it. Proportionally fair rather than optimal; O(n log n).
 */
export function hierarchicalWfq(tree: FlatTree, budget: number): Selection | undefined {
  if (tree.weight[0]! > budget) return undefined;
  const { subValue, subWeight } = subtreeTotals(tree);
  const kept = new Uint8Array(tree.size);
  kept[0] = 1;

  /** Spend up to `share` on i's descendants (i is kept); returns what was not spent. */
  const allocate = (i: number, share: number): number => {
    const kids = tree.children[i]!.filter((c) => subValue[c]! > 0);
    if (kids.length === 0 || share <= 0) return share;
    if (tree.exclusive[i]) {
      let best = -1;
      let promise = 0;
      for (const c of kids) {
        if (tree.weight[c]! > share) continue;
        const p = subValue[c]! * Math.min(1, share / Math.max(1, subWeight[c]!));
        if (p > promise) {
          promise = p;
          best = c;
        }
      }
      if (best < 0) return share;
      kept[best] = 1;
      return allocate(best, share - tree.weight[best]!);
    }
    const shares = fairShares(kids, share, subValue, subWeight);
    let left = share;
    const unkept: number[] = [];
    kids.forEach((c, k) => {
      const s = Math.min(shares[k]!, left);
      if (tree.weight[c]! > s) {
        unkept.push(c);
        return;
      }
      kept[c] = 1;
      const unspent = allocate(c, s - tree.weight[c]!);
      left -= s - unspent;
    });
    // What fair shares left over goes to the children that could not start on theirs, most valuable first.
    unkept.sort((a, b) => subValue[b]! - subValue[a]! || a - b);
    for (const c of unkept) {
      if (tree.weight[c]! > left) continue;
      kept[c] = 1;
      left -= tree.weight[c]!;
      left = allocate(c, left);
    }
    return left;
  };

  allocate(0, budget - tree.weight[0]!);
  return kept;
}

/** Weighted max-min fair split of `share` among `kids` by subtree value, capped at each subtree's weight. */
function fairShares(kids: number[], share: number, subValue: Float64Array, subWeight: Float64Array): number[] {
  const order = kids
    .map((_, k) => k)
    .sort((a, b) => subWeight[kids[a]!]! / subValue[kids[a]!]! - subWeight[kids[b]!]! / subValue[kids[b]!]! || a - b);
  const out = new Array<number>(kids.length).fill(0);
  let rest = share;
  let valueLeft = kids.reduce((s, c) => s + subValue[c]!, 0);
  let k = 0;
  for (; k < order.length; k++) {
    const c = kids[order[k]!]!;
    const fair = (rest * subValue[c]!) / valueLeft;
    if (subWeight[c]! > fair) break;
    out[order[k]!] = subWeight[c]!;
    rest -= subWeight[c]!;
    valueLeft -= subValue[c]!;
  }
  for (; k < order.length; k++) {
    const c = kids[order[k]!]!;
    out[order[k]!] = (rest * subValue[c]!) / valueLeft;
  }
  return out;
}

/** Value and weight of the most valuable way to keep all of each subtree (one alternative per exclusive node). */
function subtreeTotals(tree: FlatTree): { subValue: Float64Array; subWeight: Float64Array } {
  const subValue = new Float64Array(tree.size);
  const subWeight = new Float64Array(tree.size);
  for (let i = tree.size - 1; i >= 0; i--) {
    let v = tree.value[i]!;
    let w = tree.weight[i]!;
    const kids = tree.children[i]!;
    if (tree.exclusive[i]) {
      let best = -1;
      for (const c of kids) if (best < 0 || subValue[c]! > subValue[best]!) best = c;
      if (best >= 0) {
        v += subValue[best]!;
        w += subWeight[best]!;
      }
    } else {
      for (const c of kids) {
        v += subValue[c]!;
        w += subWeight[c]!;
      }
    }
    subValue[i] = v;
    subWeight[i] = w;
  }
  return { subValue, subWeight };
}
