import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ALGORITHMS, ALGORITHM_NAMES } from '../src/budget/algorithms/choose.js';
import { knapsackExact } from '../src/budget/algorithms/knapsack.js';
import { flatten, selectionProblem, selectionValue, selectionWeight, type FlatTree, type TrimNode } from '../src/budget/tree/trim-tree.js';
import { scaledRuns } from './helpers/arbitraries.js';

/**
 * Small random trees: 1-13 nodes, each node's parent drawn among the nodes before it (any shape),
 * some exclusive, weights 0-12, values 0-10 with fractions.
 */
const trimTree: fc.Arbitrary<TrimNode> = fc
  .array(
    fc.record({
      parentPick: fc.nat(),
      weight: fc.integer({ min: 0, max: 12 }),
      value: fc.double({ min: 0, max: 10, noNaN: true }),
      exclusive: fc.boolean(),
    }),
    { minLength: 1, maxLength: 13 },
  )
  .map((specs) => {
    const nodes: TrimNode[] = specs.map((s) => ({ weight: s.weight, value: s.value, exclusive: s.exclusive, children: [] }));
    for (let i = 1; i < nodes.length; i++) nodes[specs[i]!.parentPick % i]!.children.push(nodes[i]!);
    return nodes[0]!;
  });

/** Every selection the rules allow, enumerated: the optimum by definition. */
function bruteForceBest(tree: FlatTree, budget: number): number | undefined {
  let best: number | undefined;
  const others = tree.size - 1;
  const kept = new Uint8Array(tree.size);
  for (let mask = 0; mask < 1 << others; mask++) {
    kept[0] = 1;
    for (let i = 1; i < tree.size; i++) kept[i] = (mask >> (i - 1)) & 1;
    if (selectionProblem(tree, kept) !== undefined) continue;
    if (selectionWeight(tree, kept) > budget) continue;
    const v = selectionValue(tree, kept);
    if (best === undefined || v > best) best = v;
  }
  return best;
}

describe('trim algorithms on the trim tree', () => {
  it('the exact knapsack finds the brute-force optimum on small random trees (root-connected, one alternative per exclusive node)', () => {
    fc.assert(
      fc.property(trimTree, fc.integer({ min: 0, max: 60 }), (root, budget) => {
        const tree = flatten(root);
        const expected = bruteForceBest(tree, budget);
        const kept = knapsackExact(tree, budget);
        if (expected === undefined) {
          assert.equal(kept, undefined, 'root alone is over budget: no selection');
          return;
        }
        assert.ok(kept);
        assert.equal(selectionProblem(tree, kept), undefined);
        assert.ok(selectionWeight(tree, kept) <= budget);
        assert.ok(
          Math.abs(selectionValue(tree, kept) - expected) < 1e-9,
          `knapsack ${selectionValue(tree, kept)} vs brute force ${expected}`,
        );
      }),
      { numRuns: scaledRuns(3000) },
    );
  });

  it('with the budget counted in units of several tokens it stays within the real budget and keeps the rules', () => {
    fc.assert(
      fc.property(trimTree, fc.integer({ min: 0, max: 60 }), (root, budget) => {
        const tree = flatten(root);
        const kept = knapsackExact(tree, budget, 4);
        const exact = bruteForceBest(tree, budget);
        if (!kept) return;
        assert.equal(selectionProblem(tree, kept), undefined);
        assert.ok(selectionWeight(tree, kept) <= budget);
        assert.ok(exact !== undefined && selectionValue(tree, kept) <= exact + 1e-9);
      }),
      { numRuns: scaledRuns(1000) },
    );
  });

  for (const name of ALGORITHM_NAMES) {
    it(`${name}: every selection keeps the root, is connected, picks one alternative and fits the budget`, () => {
      fc.assert(
        fc.property(trimTree, fc.integer({ min: 0, max: 60 }), (root, budget) => {
          const tree = flatten(root);
          const kept = ALGORITHMS[name](tree, budget);
          if (tree.weight[0]! > budget) {
            assert.equal(kept, undefined);
            return;
          }
          assert.ok(kept);
          assert.equal(selectionProblem(tree, kept), undefined);
          assert.ok(selectionWeight(tree, kept) <= budget, `${selectionWeight(tree, kept)} > ${budget}`);
          const best = bruteForceBest(tree, budget)!;
          assert.ok(selectionValue(tree, kept) <= best + 1e-9);
        }),
        { numRuns: scaledRuns(1000) },
      );
    });
  }

  it('greedy can miss the optimum where the knapsack does not (a dense small node blocks a better pair)', () => {
    // root -> a (w 6, v 7: density 1.17), b (w 5, v 5), c (w 5, v 5); budget 10: a alone = 7, b + c = 10.
    const leaf = (weight: number, value: number): TrimNode => ({ weight, value, children: [] });
    const tree = flatten({ weight: 0, value: 0, children: [leaf(6, 7), leaf(5, 5), leaf(5, 5)] });
    assert.equal(selectionValue(tree, ALGORITHMS.greedy(tree, 10)!), 7);
    assert.equal(selectionValue(tree, knapsackExact(tree, 10)!), 10);
  });
});
