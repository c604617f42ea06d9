import type { JsonValue } from '../json/types.js';
import type { Comment } from './comment.js';
import type { Discussion } from './discussion.js';
import type { FileDiff } from './file-diff.js';
import type { Issue } from './issue.js';
import type { MergeRequest } from './merge-request.js';
import type { ProviderResult } from './pagination.js';
import type { ProviderName } from './provider-name.js';

/** The kinds of list devboy models, and the type of each kind's items. */
export interface ItemsByKind {
  issues: Issue;
  merge_requests: MergeRequest;
  diffs: FileDiff;
  comments: Comment;
  discussions: Discussion;
}

export type DatasetKind = keyof ItemsByKind;

/** Every kind once, in the order datasets of one project are listed: a kind added to ItemsByKind and not here fails to compile. */
const LISTED = { issues: true, merge_requests: true, diffs: true, comments: true, discussions: true } satisfies Record<DatasetKind, true>;
export const DATASET_KINDS = Object.keys(LISTED) as readonly DatasetKind[];

export type ModelItem = ItemsByKind[DatasetKind];

/** Items of one kind, with the kind: a `switch (list.kind)` narrows `list.items`. */
export type ItemList = { [K in DatasetKind]: { kind: K; items: readonly ItemsByKind[K][] } }[DatasetKind];

/** One item with its kind: a `switch (entry.kind)` narrows `entry.item`. */
export type KindedItem = { [K in DatasetKind]: { kind: K; item: ItemsByKind[K] } }[DatasetKind];

/** A provider result of one kind. */
export type KindedResult = { [K in DatasetKind]: { kind: K; result: ProviderResult<ItemsByKind[K]> } }[DatasetKind];

/** What was read from a provider for one request (or one group of single-object requests). */
export type Dataset = KindedResult & {
  provider: ProviderName;
  /** As in corpus folder names: `owner__repo` (slashes as `__`), or the Jira project key. */
  project: string;
  /** What was asked, stable across runs: method, path and query of the first request (no host). */
  label: string;
  /**
   * The provider's own items exactly as returned, API pages concatenated. 1:1 and in the same order as
   * `result.items`, except for discussions (GitHub: the review comments the threads were built from).
   */
  raw: JsonValue[];
  /** URLs fetched, in order: the recorded URLs in corpus mode, the live ones otherwise (no credentials). */
  requests: string[];
};

/** A dataset's items with their kind. */
export function itemsOf(dataset: KindedResult): ItemList {
  // Sound: KindedResult pairs each kind with items of that kind, which is all ItemList says.
  return { kind: dataset.kind, items: dataset.result.items } as ItemList;
}

/** Item `i` of a list with its kind. */
export function itemAt(list: ItemList, i: number): KindedItem {
  // Sound: every item of an ItemList has the list's kind.
  return { kind: list.kind, item: list.items[i]! } as KindedItem;
}

/** Every item of a list with its kind. */
export function kindedItems(list: ItemList): KindedItem[] {
  return list.items.map((_, i) => itemAt(list, i));
}

/** The items at `indexes` (in that order), same kind. */
export function subList(list: ItemList, indexes: readonly number[]): ItemList {
  return listOf(
    list.kind,
    indexes.map((i) => list.items[i]!),
  );
}

/** The items from `start` to `end`, same kind. */
export function sliceList(list: ItemList, start: number, end?: number): ItemList {
  return listOf(list.kind, list.items.slice(start, end));
}

/** A result whose items the caller knows are of `kind` (a provider client's output for a call of that kind). */
export function kindedResult(kind: DatasetKind, result: ProviderResult<ModelItem>): KindedResult {
  return { kind, result } as KindedResult;
}

/** A list of items that the caller knows are of `kind` (a provider normalizer's output, a parsed file). */
export function listOf(kind: DatasetKind, items: readonly ModelItem[]): ItemList {
  return { kind, items } as ItemList;
}
