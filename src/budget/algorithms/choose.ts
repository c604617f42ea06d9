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
 * Where one algorithm hands over to the next. From `npm run bench -- --only trim-algorithms` on trees
 * built from the corpus (results/bench-budget.txt; docs/budget.md has the numbers): the most valuable
 * solver whose measured time stays within 5 counts of an 8,000-token response (about 19 ms here).
 * Rounded down from that run's 1,211,464 cells, 84,025 nodes and 238,335 nodes.
 */
export const SWITCH_POINTS = {
  /** The exact knapsack while it fills at most this many capacity cells (nodes × budget units). */
  knapsackMaxCells: 1_200_000,
  /** Greedy by density up to this many nodes (within 2% of the optimum on every corpus tree over 1,000 nodes). */
  greedyMaxNodes: 80_000,
  /** Hierarchical WFQ up to this many nodes (faster per node than greedy, never more valuable); head+tail beyond. */
  wfqMaxNodes: 240_000,
};

export function chooseAlgorithm(tree: FlatTree, budget: number, points = SWITCH_POINTS): AlgorithmName {
  if (knapsackCells(tree, budget) <= points.knapsackMaxCells) return 'knapsack';
  if (tree.size <= points.greedyMaxNodes) return 'greedy';
  if (tree.size <= points.wfqMaxNodes) return 'wfq';
  return 'head_tail';
}
