export type { User } from './user.js';
export type { Pagination, SortInfo, SortOrder, ProviderResult } from './pagination.js';
export type { CodePosition, LineType } from './position.js';
export type { Issue } from './issue.js';
export type { MergeRequest } from './merge-request.js';
export type { FileDiff } from './file-diff.js';
export type { Comment } from './comment.js';
export type { Discussion } from './discussion.js';
export type { ProviderName } from './provider-name.js';
export {
  DATASET_KINDS,
  itemAt,
  itemsOf,
  kindedItems,
  kindedResult,
  listOf,
  sliceList,
  subList,
  type Dataset,
  type DatasetKind,
  type ItemList,
  type ItemsByKind,
  type KindedItem,
  type KindedResult,
  type ModelItem,
} from './kinds.js';
