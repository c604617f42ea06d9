import type { FlatTree, Selection } from '../tree/trim-tree.js';

/**
 * Capacity cells per node the exact solver works with. Above this the budget is counted in units of
 * several tokens, each weight rounded up: still exact for the rounded weights and never over the
 * real budget, at the cost of up to one unit per kept node of slack.
 */
export const KNAPSACK_MAX_UNITS = 4096;

const EPS = 1e-12;

/**
 * Exact tree knapsack: the connected subtree containing the root, with at most one child of each
 * exclusive node, of largest value whose weight is within the budget.
 *
 * Dynamic programming over capacities with the continuation passed down (O(nodes × capacity) time
 * and bytes): F(node, cont)[c] is the best value of "node's subtree, then whatever `cont` stands for"
 * with capacity c. A list of siblings folds right to left, each sibling's result becoming the
 * continuation of the one before it; an exclusive node takes the best of its children, each solved
 * against the same continuation, so choosing one skips the others. Returns undefined when the root
 * alone is over the budget.
 */
export function knapsackExact(tree: FlatTree, budget: number, maxUnits = KNAPSACK_MAX_UNITS): Selection | undefined {
  const unit = Math.max(1, Math.ceil(budget / maxUnits));
  const cap = Math.floor(budget / unit);
  const w = new Int32Array(tree.size);
  for (let i = 0; i < tree.size; i++) w[i] = Math.ceil(tree.weight[i]! / unit);
  if (w[0]! > cap) return undefined;

  const include: (Uint8Array | undefined)[] = new Array(tree.size);
  const choice: (Uint16Array | undefined)[] = new Array(tree.size);

  const solveNode = (i: number, cont: Float64Array): Float64Array => {
    const inner = solveChildren(i, cont);
    const wi = w[i]!;
    const vi = tree.value[i]!;
    const res = new Float64Array(cap + 1);
    const inc = new Uint8Array(cap + 1);
    for (let c = 0; c <= cap; c++) {
      const skip = cont[c]!;
      if (c >= wi && vi + inner[c - wi]! > skip + EPS) {
        res[c] = vi + inner[c - wi]!;
        inc[c] = 1;
      } else res[c] = skip;
    }
    include[i] = inc;
    return res;
  };

  const solveChildren = (i: number, cont: Float64Array): Float64Array => {
    const kids = tree.children[i]!;
    if (kids.length === 0) return cont;
    if (!tree.exclusive[i]) {
      let cur = cont;
      for (let k = kids.length - 1; k >= 0; k--) cur = solveNode(kids[k]!, cur);
      return cur;
    }
    const best = Float64Array.from(cont);
    const pick = new Uint16Array(cap + 1);
    for (let k = 0; k < kids.length; k++) {
      const r = solveNode(kids[k]!, cont);
      for (let c = 0; c <= cap; c++) {
        if (r[c]! > best[c]! + EPS) {
          best[c] = r[c]!;
          pick[c] = k + 1;
        }
      }
    }
    choice[i] = pick;
    return best;
  };

  solveChildren(0, new Float64Array(cap + 1));

  const kept = new Uint8Array(tree.size);
  const walkNode = (i: number, c: number): number => {
    if (!include[i]![c]) return c;
    kept[i] = 1;
    return walkChildren(i, c - w[i]!);
  };
  const walkChildren = (i: number, c: number): number => {
    const kids = tree.children[i]!;
    if (kids.length === 0) return c;
    if (tree.exclusive[i]) {
      const k = choice[i]![c]!;
      return k === 0 ? c : walkNode(kids[k - 1]!, c);
    }
    for (const kid of kids) c = walkNode(kid, c);
    return c;
  };
  kept[0] = 1;
  walkChildren(0, cap - w[0]!);
  return kept;
}

/** Capacity cells the exact solver fills for this tree and budget: its time and memory. */
export function knapsackCells(tree: FlatTree, budget: number, maxUnits = KNAPSACK_MAX_UNITS): number {
  const unit = Math.max(1, Math.ceil(budget / maxUnits));
  return tree.size * (Math.floor(budget / unit) + 1);
}
