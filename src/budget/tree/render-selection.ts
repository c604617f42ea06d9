import type { JsonObject } from '../../json/types.js';
import type { NodeRef } from './chunk-tree.js';
import { applyCuts, type ItemPlan } from './item-plan.js';
import type { FlatTree, Selection } from './trim-tree.js';
import { LEAST_DETAIL, type DetailLevel } from '../../trim/levels.js';

export interface RenderedItem {
  /** Position in the list as given. */
  index: number;
  level: DetailLevel;
  /** Whether a text was cut or a thread comment left out. */
  cut: boolean;
  value: JsonObject;
}

/** Every item at minimal detail: the response the chunk planner checked to fit. */
export function renderMinimal(plans: readonly ItemPlan[]): RenderedItem[] {
  return plans.map((p) => ({ index: p.index, level: LEAST_DETAIL, cut: false, value: p.minimal }));
}

/** The items of a chunk as a selection of its trim tree keeps them, in the chunk's order. */
export function renderSelection(plans: readonly ItemPlan[], tree: FlatTree, kept: Selection): RenderedItem[] {
  const level = new Map<number, number>();
  const blocks = new Set<string>();
  const comments = new Set<string>();
  for (let i = 0; i < tree.size; i++) {
    if (!kept[i]) continue;
    const ref = tree.refs[i] as NodeRef;
    if (ref.type === 'level') level.set(ref.item, ref.level);
    else if (ref.type === 'block') blocks.add(`${ref.item}/${ref.level}/${ref.text}/${ref.block}`);
    else if (ref.type === 'comment') comments.add(`${ref.item}/${ref.level}/${ref.comment}`);
  }
  return plans.map((plan, item) => {
    const li = level.get(item);
    if (li === undefined) return { index: plan.index, level: LEAST_DETAIL, cut: false, value: plan.minimal };
    const lp = plan.levels[li]!;
    let cut = false;
    const value = applyCuts(
      lp.object,
      lp.texts,
      lp.comments,
      (t, b) => {
        const keep = blocks.has(`${item}/${li}/${t}/${b}`);
        // A block of a comment that is left out is not a cut of its own.
        const owner = lp.texts[t]!.comment;
        if (!keep && (owner === undefined || comments.has(`${item}/${li}/${owner}`))) cut = true;
        return keep;
      },
      (c) => {
        const keep = comments.has(`${item}/${li}/${c}`);
        if (!keep) cut = true;
        return keep;
      },
    );
    return { index: plan.index, level: lp.level, cut, value };
  });
}
