import type { ItemPlan } from './item-plan.js';
import type { TrimNode } from './trim-tree.js';

/**
 * How an item's value splits over what can be kept of it. An item at minimal detail is worth 0.3
 * of its value; standard adds 0.2 and full 0.25 (timestamps, user objects: little to act on for
 * many tokens); its long texts hold the remaining 0.45, spread over their blocks of lines by the
 * strategy's line values. So full with every line kept is worth the item's whole value.
 */
export const VALUE_SHARES = { minimal: 0.3, standard: 0.2, full: 0.25, text: 0.45 } as const;
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
export function chunkTree(plans: readonly ItemPlan[]): TrimNode {
  return { weight: 0, value: 0, ref: { type: 'root' }, children: plans.map((plan, item) => itemNode(plan, item)) };
}

function itemNode(plan: ItemPlan, item: number): TrimNode {
  const v = plan.value;
  const levels = plan.levels.map((lp, level): TrimNode => {
    const units = lp.comments.length > 0 || lp.texts.some((t) => t.comment !== undefined) ? commentUnits(lp.object) : 1;
    const unitValue = (v * VALUE_SHARES.text) / units;
    let textValueInNodes = 0;
    const block = (text: number, share: number) => (b: number): TrimNode => ({
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
      children.push(...blocks(ti, share));
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
    const levelShare = lp.level === 'full' ? VALUE_SHARES.full : VALUE_SHARES.standard;
    return {
      weight: Math.max(0, lp.baseTokens - plan.minimalTokens),
      value: v * levelShare + Math.max(0, v * VALUE_SHARES.text - textValueInNodes),
      ref: { type: 'level', item, level },
      children,
    };
  });
  return { weight: 0, value: v * VALUE_SHARES.minimal, exclusive: true, ref: { type: 'item', item }, children: levels };
}

function commentUnits(object: Record<string, unknown>): number {
  const list = object['comments'];
  return Array.isArray(list) && list.length > 0 ? list.length : 1;
}
