import type { Pagination } from '../../model/index.js';

/** One page of an offset-paginated Jira list: `{startAt, maxResults, total, <items>}`. */
export interface JiraOffsetPage {
  startAt: number;
  maxResults?: number;
  total?: number;
  count: number;
}

export function jiraOffsetPagination(pages: readonly JiraOffsetPage[], requestedMax: number | undefined): Pagination {
  const first = pages[0]!;
  const last = pages.at(-1)!;
  const pageSize = first.maxResults ?? requestedMax ?? first.count;
  const total = last.total;
  const reached = last.startAt + last.count;
  return {
    offset: first.startAt,
    limit: pageSize * pages.length,
    ...(total !== undefined ? { total } : {}),
    has_more: total !== undefined ? reached < total && last.count > 0 : false,
  };
}

/** Cloud's enhanced search pages by token and never says how many there are. */
export function jiraTokenPagination(pageCount: number, pageSize: number, nextPageToken: string | undefined): Pagination {
  return {
    offset: 0,
    limit: pageSize * pageCount,
    has_more: nextPageToken !== undefined,
    ...(nextPageToken !== undefined ? { next_cursor: nextPageToken } : {}),
  };
}
