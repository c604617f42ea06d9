import type { FlatTree, Selection } from '../tree/trim-tree.js';
import { greedyByDensity } from './greedy.js';
import { headTail } from './head-tail.js';
import { knapsackCells, knapsackExact } from './knapsack.js';
import { hierarchicalWfq } from './wfq.js';

export const ALGORITHM_NAMES = ['knapsack', 'greedy', 'wfq', 'head_tail'] as const;
export type AlgorithmName = (typeof ALGORITHM_NAMES)[number];

export const ALGORITHMS: Record<AlgorithmName, (tree: FlatTree, budget: number) => Selection | undefined> = {
  knapsack: knapsackExact,
  greedy: greedyByDensity,
  wfq: hierarchicalWfq,
  head_tail: headTail,
};

/**
 * Where one algorithm hands over to the next. Measured by `npm run bench -- --only trim-algorithms`
 * on trees built from the corpus (docs/budget.md has the numbers and the rule that picked these).
 */
export const SWITCH_POINTS = {
  /** The exact knapsack while it fills at most this many capacity cells (nodes × budget units). */
  knapsackMaxCells: 6_000_000,
  /** Greedy by density up to this many nodes. */
  greedyMaxNodes: 100_000,
  /** Hierarchical WFQ up to this many nodes; head+tail beyond. */
  wfqMaxNodes: 400_000,
};

export function chooseAlgorithm(tree: FlatTree, budget: number, points = SWITCH_POINTS): AlgorithmName {
  if (knapsackCells(tree, budget) <= points.knapsackMaxCells) return 'knapsack';
  if (tree.size <= points.greedyMaxNodes) return 'greedy';
  if (tree.size <= points.wfqMaxNodes) return 'wfq';
  return 'head_tail';
}
