import type { Format } from '../formats/types.js';
import { ALGORITHMS, chooseAlgorithm, type AlgorithmName } from './algorithms/choose.js';
import { chunkTree } from './tree/chunk-tree.js';
import type { ItemPlan } from './tree/item-plan.js';
import { renderMinimal, renderSelection, type RenderedItem } from './tree/render-selection.js';
import { flatten, selectionValue, selectionWeight } from './tree/trim-tree.js';

export interface TrimRequest {
  plans: readonly ItemPlan[];
  format: Format;
  budget: number;
  count: (text: string) => number;
  /** The whole response for these rendered items: content plus index or note. */
  respond: (items: readonly RenderedItem[], content: string) => string;
  algorithm?: AlgorithmName;
}

export interface Trimmed {
  items: RenderedItem[];
  text: string;
  tokens: number;
  algorithm?: AlgorithmName;
  /** Budget-loop rounds that rendered and counted a candidate. */
  rounds: number;
}

const MAX_ROUNDS = 6;
/** Close enough to the budget to stop looking for more. */
const GOOD_ENOUGH = 0.97;

/**
 * Fit one chunk's items into the budget with as much value as the algorithm finds: every item at
 * minimal detail first (the chunk planner checked that this fits), then the trim tree decides what
 * the rest of the budget buys. Weights in the tree are estimates, so each candidate is rendered and
 * counted with the real tokenizer; when it is over, the tree's budget shrinks by the measured ratio,
 * when it is well under, it grows. Only a response whose real count is within budget is returned.
 */
export function trimChunk(req: TrimRequest): Trimmed | undefined {
  const render = (items: RenderedItem[]) => {
    const text = req.respond(items, req.format.encode(items.map((i) => i.value)));
    return { items, text, tokens: req.count(text) };
  };
  const floor = render(renderMinimal(req.plans));
  if (floor.tokens > req.budget) return undefined;
  const room = req.budget - floor.tokens;
  if (room <= 0) return { ...floor, rounds: 1 };
  const tree = flatten(chunkTree(req.plans));
  const algorithm = req.algorithm ?? chooseAlgorithm(tree, room);
  let best: Trimmed & { value: number } = { ...floor, rounds: 1, value: -1 };
  let target = room;
  let rounds = 1;
  const tried = new Set<number>();
  while (rounds < MAX_ROUNDS && target > 0 && !tried.has(target)) {
    tried.add(target);
    const kept = ALGORITHMS[algorithm](tree, target);
    if (!kept) break;
    const planned = selectionWeight(tree, kept);
    if (planned === 0) break;
    const candidate = render(renderSelection(req.plans, tree, kept));
    rounds++;
    const spent = Math.max(1, candidate.tokens - floor.tokens);
    if (candidate.tokens <= req.budget) {
      const value = selectionValue(tree, kept);
      if (value > best.value) best = { ...candidate, rounds, value, algorithm };
      if (candidate.tokens >= req.budget * GOOD_ENOUGH || planned < target * GOOD_ENOUGH) break;
      target = Math.floor((target * room) / spent);
    } else {
      target = Math.min(target - 1, Math.floor(((target * room) / spent) * 0.98));
    }
  }
  const { value: _value, ...result } = best;
  return { ...result, rounds };
}
