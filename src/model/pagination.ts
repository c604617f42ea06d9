/**
 * Where a result sits in the provider's collection, read from the provider's own signals
 * (GitHub `Link`, GitLab `X-*` headers, Jira `startAt`/`total` or `nextPageToken`).
 */
export interface Pagination {
  /** Items before the first one returned. */
  offset: number;
  /** Items asked for: page size times pages fetched. */
  limit: number;
  /** Size of the whole collection, when the provider says (or when the last page was reached). */
  total?: number;
  has_more: boolean;
  /** The provider's handle for the next page: a page number (GitHub, GitLab) or a token (Jira Cloud). */
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
