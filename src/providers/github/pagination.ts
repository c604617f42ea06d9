import type { Pagination } from '../../model/index.js';
import { linkParam, parseLinkHeader } from '../link-header.js';

export interface GithubPage {
  /** The URL requested (query tells page and per_page). */
  url: string;
  link: string | undefined;
  /** Items the page held, before any filtering. */
  count: number;
}

const DEFAULT_PER_PAGE = 30;

/**
 * GitHub paginates by `Link` and never sends a total (search sends `total_count` in the body).
 * When the last page fetched has no `next`, the collection ended there, so its size is known —
 * unless a lone full page came without any Link header, which recorders that trimmed headers
 * also produce: then the total stays unknown.
 */
export function githubPagination(pages: readonly GithubPage[], totalFromBody?: number): Pagination {
  const first = new URL(pages[0]!.url, 'https://api.github.com').searchParams;
  const perPage = positive(first.get('per_page')) ?? DEFAULT_PER_PAGE;
  const page = positive(first.get('page')) ?? 1;
  const offset = (page - 1) * perPage;
  const limit = perPage * pages.length;
  const last = pages.at(-1)!;
  const next = parseLinkHeader(last.link)['next'];
  const fetched = pages.reduce((n, p) => n + p.count, 0);
  const ended = !next && (last.link !== undefined || pages.length > 1 || last.count < perPage);
  const total = totalFromBody ?? (ended ? offset + fetched : undefined);
  const cursor = next ? (linkParam(next, 'page') ?? linkParam(next, 'after') ?? linkParam(next, 'cursor')) : undefined;
  return {
    offset,
    limit,
    ...(total !== undefined ? { total } : {}),
    has_more: next !== undefined,
    ...(cursor !== undefined ? { next_cursor: cursor } : {}),
  };
}

function positive(value: string | null): number | undefined {
  const n = value === null ? NaN : Number(value);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}
