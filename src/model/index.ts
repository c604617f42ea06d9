export type { User } from './user.js';
export type { Pagination, SortInfo, SortOrder, ProviderResult } from './pagination.js';
export type { CodePosition, LineType } from './position.js';
export type { Issue, Source } from './issue.js';
export type { MergeRequest } from './merge-request.js';
export type { FileDiff } from './file-diff.js';
export type { Comment } from './comment.js';
export type { Discussion } from './discussion.js';
