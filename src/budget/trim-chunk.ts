import type { Format } from '../formats/types.js';
import type { DatasetKind } from '../model/index.js';
import { ALGORITHMS, chooseAlgorithm, type AlgorithmName } from './algorithms/choose.js';
import { chunkTree } from './tree/chunk-tree.js';
import { applyCuts, type ItemPlan } from './tree/item-plan.js';
import { renderMinimal, renderSelection, type RenderedItem } from './tree/render-selection.js';
import { flatten, selectionValue, selectionWeight } from './tree/trim-tree.js';

export interface TrimRequest {
  kind: DatasetKind;
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
  const tree = flatten(chunkTree(req.kind, req.plans));
  const algorithm = req.algorithm ?? chooseAlgorithm(tree, room);
  let best: Trimmed & { value: number } = { ...floor, rounds: 1, value: -1 };
  let rounds = 1;
  const penalty = mixingPenalty(req, render, floor.tokens);
  rounds++;
  let target = room - penalty;
  const tried = new Set<number>();
  while (rounds < MAX_ROUNDS && target > 0 && !tried.has(target)) {
    tried.add(target);
    const kept = ALGORITHMS[algorithm](tree, target);
    if (!kept) break;
    const planned = selectionWeight(tree, kept);
    if (planned === 0) break;
    const candidate = render(renderSelection(req.plans, tree, kept));
    rounds++;
    const spent = Math.max(1, candidate.tokens - floor.tokens - penalty);
    if (candidate.tokens <= req.budget) {
      const value = selectionValue(tree, kept);
      if (value > best.value) best = { ...candidate, rounds, value, algorithm };
      if (candidate.tokens >= req.budget * GOOD_ENOUGH || planned < target * GOOD_ENOUGH) break;
      target = Math.floor((target * (room - penalty)) / spent);
    } else {
      target = Math.min(target - 1, Math.floor(((target * (room - penalty)) / spent) * 0.98));
    }
  }
  const { value: _value, ...result } = best;
  return { ...result, rounds };
}

/**
 * What mixing levels costs beyond the items' own upgrades. Items all at one level share a table in
 * TOON, STC and GCF; one item with other fields turns the list into one block per item, so the first
 * upgrade costs every item its keys. Measured, not guessed: the response with the cheapest upgrade
 * made, less the all-minimal response, less what the tree says that upgrade weighs.
 */
function mixingPenalty(req: TrimRequest, render: (items: RenderedItem[]) => { tokens: number }, floorTokens: number): number {
  let cheapest: { item: number; level: number; weight: number } | undefined;
  req.plans.forEach((p, item) =>
    p.levels.forEach((l, level) => {
      const weight = Math.max(0, l.baseTokens - p.minimalTokens);
      if (!cheapest || weight < cheapest.weight) cheapest = { item, level, weight };
    }),
  );
  if (!cheapest) return 0;
  const { item, level, weight } = cheapest;
  const items = renderMinimal(req.plans);
  const lp = req.plans[item]!.levels[level]!;
  items[item] = {
    index: req.plans[item]!.index,
    level: lp.level,
    cut: lp.texts.length > 0,
    value: applyCuts(
      lp.object,
      lp.texts,
      lp.comments,
      () => false,
      () => false,
    ),
  };
  return Math.max(0, render(items).tokens - floorTokens - weight);
}
