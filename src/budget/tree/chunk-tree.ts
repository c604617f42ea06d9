import type { DatasetKind } from '../../model/index.js';
import { UPGRADE_LEVELS, type DetailLevel } from '../../trim/levels.js';
import type { ItemPlan } from './item-plan.js';
import type { TrimNode } from './trim-tree.js';

/**
 * How an item's value splits over what can be kept of it, by kind. Minimal detail is what identifies
 * an item (key, title, state; path and +/-; author and first line), so it carries about a third.
 * Standard and full add fields an agent rarely acts on (labels and url; timestamps and user objects),
 * worth little next to the long texts (description, patch, body), which hold the rest, spread over
 * their blocks of lines by the strategy's line values. Full with every line kept is the whole value.
 */
export const VALUE_SHARES: Record<DatasetKind, Record<DetailLevel | 'text', number>> = {
  issues: { minimal: 0.35, standard: 0.15, full: 0.05, text: 0.45 },
  merge_requests: { minimal: 0.35, standard: 0.15, full: 0.05, text: 0.45 },
  diffs: { minimal: 0.3, standard: 0, full: 0, text: 0.7 },
  comments: { minimal: 0.3, standard: 0.05, full: 0.02, text: 0.63 },
  discussions: { minimal: 0.3, standard: 0.05, full: 0.02, text: 0.63 },
};
/** Of a thread comment's share, what its author/date shell is worth; its body holds the rest. */
const COMMENT_SHELL_SHARE = 0.2;

export type NodeRef =
  | { type: 'root' }
  | { type: 'item'; item: number }
  | { type: 'level'; item: number; level: number }
  | { type: 'block'; item: number; level: number; text: number; block: number }
  | { type: 'comment'; item: number; level: number; comment: number };

/**
 * The trim tree of one chunk: root → items → their levels (alternatives: standard or full) → the
 * blocks of their long texts and their optional thread comments → those comments' blocks. Every
 * item of the chunk is in the response at least at minimal detail, so its minimal cost is paid
 * before the tree is solved: item nodes weigh nothing, and an upgrade weighs what it adds.
 */
export function chunkTree(kind: DatasetKind, plans: readonly ItemPlan[]): TrimNode {
  const shares = VALUE_SHARES[kind];
  return { weight: 0, value: 0, ref: { type: 'root' }, children: plans.map((plan, item) => itemNode(plan, item, shares)) };
}

function itemNode(plan: ItemPlan, item: number, shares: (typeof VALUE_SHARES)[DatasetKind]): TrimNode {
  const v = plan.value;
  const levels = plan.levels.map((lp, level): TrimNode => {
    const units = lp.comments.length > 0 || lp.texts.some((t) => t.comment !== undefined) ? commentUnits(lp.object) : 1;
    const unitValue = (v * shares.text) / units;
    let textValueInNodes = 0;
    const block =
      (text: number, share: number) =>
      (b: number): TrimNode => ({
        weight: lp.texts[text]!.blockTokens[b]!,
        value: share * lp.texts[text]!.blockShares[b]!,
        ref: { type: 'block', item, level, text, block: b },
        children: [],
      });
    // A prefix-only text is a chain: block k+1 hangs under block k.
    const blocks = (text: number, share: number): TrimNode[] => {
      const nodes = lp.texts[text]!.blocks.map((_, b) => block(text, share)(b));
      if (!lp.texts[text]!.prefix) return nodes;
      for (let b = nodes.length - 1; b > 0; b--) nodes[b - 1]!.children.push(nodes[b]!);
      return nodes.slice(0, 1);
    };
    const children: TrimNode[] = [];
    lp.texts.forEach((t, ti) => {
      if (t.comment !== undefined) return;
      const share = units === 1 ? unitValue : unitValue * (1 - COMMENT_SHELL_SHARE);
      textValueInNodes += share;
      // One push per node: a text of 100k+ blocks would overflow the stack as spread arguments.
      for (const node of blocks(ti, share)) children.push(node);
    });
    for (const c of lp.comments) {
      const ti = lp.texts.findIndex((t) => t.comment === c.index);
      const bodyShare = ti >= 0 ? unitValue * (1 - COMMENT_SHELL_SHARE) : 0;
      textValueInNodes += unitValue;
      children.push({
        weight: c.shellTokens,
        value: unitValue - bodyShare,
        ref: { type: 'comment', item, level, comment: c.index },
        children: ti >= 0 ? blocks(ti, bodyShare) : [],
      });
    }
    // Text value no node carries (short texts kept whole) comes with the level itself.
    // A level has the fields of the levels below it: its share adds theirs (full = standard's + full's).
    const levelShare = sum(UPGRADE_LEVELS.slice(0, UPGRADE_LEVELS.indexOf(lp.level) + 1).map((l) => shares[l]));
    return {
      weight: Math.max(0, lp.baseTokens - plan.minimalTokens),
      value: v * levelShare + Math.max(0, v * shares.text - textValueInNodes),
      ref: { type: 'level', item, level },
      children,
    };
  });
  return { weight: 0, value: v * shares.minimal, exclusive: true, ref: { type: 'item', item }, children: levels };
}

function commentUnits(object: Record<string, unknown>): number {
  const list = object['comments'];
  return Array.isArray(list) && list.length > 0 ? list.length : 1;
}

function sum(values: readonly number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
