import type { Pagination } from '../../model/index.js';
import { linkParam, parseLinkHeader } from '../link-header.js';

export interface GitlabPage {
  url: string;
  headers: Headers;
  count: number;
}

const DEFAULT_PER_PAGE = 20;

/**
 * From GitLab's headers: `X-Page`, `X-Per-Page`, `X-Total` (left out by GitLab above 10,000
 * results), `X-Next-Page` (empty on the last page). v3-era recordings lack them: then the request's
 * `page`/`per_page` and the Link header's `next` stand in.
 */
export function gitlabPagination(pages: readonly GitlabPage[]): Pagination {
  const first = pages[0]!;
  const last = pages.at(-1)!;
  const query = new URL(first.url, 'https://gitlab.invalid').searchParams;
  const perPage = positive(first.headers.get('x-per-page')) ?? positive(query.get('per_page')) ?? DEFAULT_PER_PAGE;
  const page = positive(first.headers.get('x-page')) ?? positive(query.get('page')) ?? 1;
  const total = int(last.headers.get('x-total'));
  let next: string | undefined;
  if (last.headers.has('x-next-page')) next = last.headers.get('x-next-page')!.trim() || undefined;
  else {
    const link = parseLinkHeader(last.headers.get('link'))['next'];
    next = link ? (linkParam(link, 'page') ?? '') : undefined;
  }
  return {
    offset: (page - 1) * perPage,
    limit: perPage * pages.length,
    ...(total !== undefined ? { total } : {}),
    has_more: next !== undefined,
    ...(next ? { next_cursor: next } : {}),
  };
}

/** Query parameters GitLab echoed in its Link URLs (it lists the defaults it applied there). */
export function echoedParams(headers: Headers): Record<string, string> {
  const links = parseLinkHeader(headers.get('link'));
  const any = links['first'] ?? links['next'] ?? links['last'];
  if (!any) return {};
  const query = any.includes('?') ? any.slice(any.indexOf('?') + 1) : '';
  return Object.fromEntries(new URLSearchParams(query));
}

function int(value: string | null): number | undefined {
  if (value === null || value.trim() === '') return undefined;
  const n = Number(value);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

function positive(value: string | null): number | undefined {
  const n = int(value);
  return n !== undefined && n > 0 ? n : undefined;
}
