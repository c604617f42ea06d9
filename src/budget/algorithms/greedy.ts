import type { FlatTree, Selection } from '../tree/trim-tree.js';

/**
 * Greedy by value density: among the nodes whose parent is kept (and whose exclusive siblings are
 * not), keep the one with the most value per token that still fits; repeat until none fits.
 * O(n log n). Not optimal: it never revisits a choice, so a cheap alternative taken early (an item
 * at standard) blocks a better one later (the same item at full).
 */
export function greedyByDensity(tree: FlatTree, budget: number): Selection | undefined {
  if (tree.weight[0]! > budget) return undefined;
  const kept = new Uint8Array(tree.size);
  const blocked = new Uint8Array(tree.size);
  kept[0] = 1;
  let left = budget - tree.weight[0]!;
  const heap = new DensityHeap(tree);
  for (const c of tree.children[0]!) heap.push(c);
  while (heap.size > 0) {
    const i = heap.pop();
    if (blocked[i] || tree.weight[i]! > left) continue;
    kept[i] = 1;
    left -= tree.weight[i]!;
    const p = tree.parent[i]!;
    if (tree.exclusive[p]) for (const s of tree.children[p]!) if (s !== i) blocked[s] = 1;
    for (const c of tree.children[i]!) heap.push(c);
  }
  return kept;
}

/** Max-heap of node indexes by value per token (weightless nodes first), ties to the earlier node. */
class DensityHeap {
  private readonly items: number[] = [];
  constructor(private readonly tree: FlatTree) {}

  get size(): number {
    return this.items.length;
  }

  private before(a: number, b: number): boolean {
    const da = density(this.tree, a);
    const db = density(this.tree, b);
    return da > db || (da === db && a < b);
  }

  push(i: number): void {
    const h = this.items;
    h.push(i);
    let k = h.length - 1;
    while (k > 0) {
      const up = (k - 1) >> 1;
      if (!this.before(h[k]!, h[up]!)) break;
      [h[k], h[up]] = [h[up]!, h[k]!];
      k = up;
    }
  }

  pop(): number {
    const h = this.items;
    const top = h[0]!;
    const last = h.pop()!;
    if (h.length > 0) {
      h[0] = last;
      let k = 0;
      for (;;) {
        const l = 2 * k + 1;
        const r = l + 1;
        let m = k;
        if (l < h.length && this.before(h[l]!, h[m]!)) m = l;
        if (r < h.length && this.before(h[r]!, h[m]!)) m = r;
        if (m === k) break;
        [h[k], h[m]] = [h[m]!, h[k]!];
        k = m;
      }
    }
    return top;
  }
}

function density(tree: FlatTree, i: number): number {
  const w = tree.weight[i]!;
  return w === 0 ? Number.POSITIVE_INFINITY : tree.value[i]! / w;
}
