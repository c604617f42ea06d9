/**
 * The API pages one list call has fetched. A server whose next API page is one already read
 * (GitHub's `rel="next"` naming the API page itself, GitLab's `X-Next-Page` naming the current one,
 * a Jira `nextPageToken` or `startAt` that does not move, a cycle of two) would otherwise be read
 * again until the bound on API pages, its items counted each time. A next API page on the trail
 * ends the list: every API page the server offered has been read once.
 */
export class PageTrail {
  private readonly seen = new Set<string>();

  /** Note an API page as fetched (the URL as requested). */
  add(url: string): void {
    this.seen.add(pageKey(url));
  }

  /** Whether this URL names an API page already fetched. */
  has(url: string): boolean {
    return this.seen.has(pageKey(url));
  }
}

/** Where a list starts, as the providers default it: `page=1` and `startAt=0` name the first API page as their absence does. */
const FIRST_PAGE: Readonly<Record<string, string>> = { page: '1', startAt: '0' };

/**
 * One API page's identity: origin and path, and the query as a server reads it (form-decoded, in
 * name order, with the first API page's defaults left out): `?page=1&per_page=5` is `?per_page=5`.
 */
export function pageKey(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  const params = [...parsed.searchParams]
    .filter(([name, value]) => FIRST_PAGE[name] !== value)
    .sort(([a, av], [b, bv]) => (a < b ? -1 : a > b ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return `${parsed.origin}${parsed.pathname.replace(/\/+$/, '')}?${new URLSearchParams(params).toString()}`;
}
