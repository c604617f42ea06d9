import type { SortInfo } from '../../model/index.js';
import { matchRoute, routePattern as r, type Route } from '../routes.js';
import type { EndpointCall } from '../types.js';

/**
 * The GitHub endpoints devboy reads, recognised from a recorded URL, and the sorts each offers
 * (from GitHub's REST reference; defaults as GitHub documents them).
 */

const SEGMENT = '([^/]+)';
const ROUTES: Route[] = [
  { endpoint: 'issues', kind: 'issues', pattern: r(`/repos/${SEGMENT}/${SEGMENT}/issues`), names: ['owner', 'repo'] },
  { endpoint: 'search_issues', kind: 'issues', pattern: r('/search/issues'), names: [] },
  {
    endpoint: 'issue',
    kind: 'issues',
    pattern: r(`/repos/${SEGMENT}/${SEGMENT}/issues/(\\d+)`),
    names: ['owner', 'repo', 'issue_number'],
    single: true,
  },
  { endpoint: 'pulls', kind: 'merge_requests', pattern: r(`/repos/${SEGMENT}/${SEGMENT}/pulls`), names: ['owner', 'repo'] },
  {
    endpoint: 'pull',
    kind: 'merge_requests',
    pattern: r(`/repos/${SEGMENT}/${SEGMENT}/pulls/(\\d+)`),
    names: ['owner', 'repo', 'pull_number'],
    single: true,
  },
  {
    endpoint: 'pull_files',
    kind: 'diffs',
    pattern: r(`/repos/${SEGMENT}/${SEGMENT}/pulls/(\\d+)/files`),
    names: ['owner', 'repo', 'pull_number'],
  },
  {
    endpoint: 'issue_comments',
    kind: 'comments',
    pattern: r(`/repos/${SEGMENT}/${SEGMENT}/issues/(\\d+)/comments`),
    names: ['owner', 'repo', 'issue_number'],
  },
  {
    endpoint: 'repo_issue_comments',
    kind: 'comments',
    pattern: r(`/repos/${SEGMENT}/${SEGMENT}/issues/comments`),
    names: ['owner', 'repo'],
  },
  {
    endpoint: 'review_comments',
    kind: 'discussions',
    pattern: r(`/repos/${SEGMENT}/${SEGMENT}/pulls/(\\d+)/comments`),
    names: ['owner', 'repo', 'pull_number'],
  },
  {
    endpoint: 'repo_review_comments',
    kind: 'discussions',
    pattern: r(`/repos/${SEGMENT}/${SEGMENT}/pulls/comments`),
    names: ['owner', 'repo'],
  },
];

/** The call that replays a recorded GET, or undefined for endpoints devboy does not model (commits, events, ...). */
export function classifyGithub(url: string): EndpointCall | undefined {
  const parsed = new URL(url, 'https://api.github.com');
  // GitHub Enterprise serves the same API under /api/v3.
  const path = parsed.pathname.replace(/^\/api\/v3(?=\/)/, '');
  return matchRoute(ROUTES, path, parsed.searchParams);
}

const SEARCH_SORTS = [
  'comments',
  'reactions',
  'reactions-+1',
  'reactions--1',
  'reactions-smile',
  'reactions-thinking_face',
  'reactions-heart',
  'reactions-tada',
  'interactions',
  'created',
  'updated',
];

/** The sort applied (request parameters, else GitHub's documented default) and the sorts offered. */
export function githubSortInfo(endpoint: string, query: Record<string, string>): SortInfo | undefined {
  const direction = query['direction'] === 'asc' || query['direction'] === 'desc' ? query['direction'] : undefined;
  switch (endpoint) {
    case 'issues':
      return { sort_by: query['sort'] ?? 'created', sort_order: direction ?? 'desc', available_sorts: ['created', 'updated', 'comments'] };
    case 'pulls': {
      const sort = query['sort'] ?? 'created';
      // GitHub: "Default: desc when sort is created or sort is not specified, otherwise asc."
      return {
        sort_by: sort,
        sort_order: direction ?? (sort === 'created' ? 'desc' : 'asc'),
        available_sorts: ['created', 'updated', 'popularity', 'long-running'],
      };
    }
    case 'search_issues': {
      const order = query['order'] === 'asc' ? 'asc' : 'desc';
      // Without `sort`, search results are in best-match order: no field to name.
      return query['sort']
        ? { sort_by: query['sort'], sort_order: order, available_sorts: SEARCH_SORTS }
        : { sort_order: order, available_sorts: SEARCH_SORTS };
    }
    case 'issue_comments':
      return { sort_by: 'created', sort_order: 'asc', available_sorts: [] };
    case 'repo_issue_comments':
    case 'review_comments':
    case 'repo_review_comments':
      return { sort_by: query['sort'] ?? 'created', sort_order: direction ?? 'asc', available_sorts: ['created', 'updated'] };
    default:
      return undefined;
  }
}
