/**
 * Where a result sits in the provider's collection, read from the provider's own signals
 * (GitHub `Link`, GitLab `X-*` headers, Jira `startAt`/`total` or `nextPageToken`). Its pages are
 * API pages (docs/architecture.md's words), not the chunks of a budgeted response.
 */
export interface Pagination {
  /** Items before the first one returned. */
  offset: number;
  /** Items asked for: API page size times API pages fetched. */
  limit: number;
  /** Size of the whole collection, when the provider says (or when the last API page was reached). */
  total?: number;
  has_more: boolean;
  /** The provider's handle for the next API page: a page number (GitHub, GitLab) or a token (Jira Cloud). */
  next_cursor?: string;
}

export type SortOrder = 'asc' | 'desc';

export interface SortInfo {
  /** The sort applied, in the provider's own vocabulary; absent when it is the provider's relevance order. */
  sort_by?: string;
  sort_order: SortOrder;
  /** The sort fields this endpoint of this provider accepts. */
  available_sorts: string[];
}

export interface ProviderResult<T> {
  items: T[];
  pagination?: Pagination;
  sort_info?: SortInfo;
}
