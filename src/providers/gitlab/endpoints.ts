import type { SortInfo } from '../../model/index.js';
import { matchRoute, routePattern as r, type Route } from '../routes.js';
import type { EndpointCall } from '../types.js';

/** The GitLab endpoints devboy reads (API v4, and v3 recordings), recognised from a recorded URL. */

const PROJECT = '/api/v[34]/projects/([^/]+)';
const ROUTES: Route[] = [
  { endpoint: 'issues', kind: 'issues', pattern: r(`${PROJECT}/issues`), names: ['project_id'] },
  { endpoint: 'issue', kind: 'issues', pattern: r(`${PROJECT}/issues/(\\d+)`), names: ['project_id', 'iid'], single: true },
  { endpoint: 'merge_requests', kind: 'merge_requests', pattern: r(`${PROJECT}/merge_requests`), names: ['project_id'] },
  {
    endpoint: 'merge_request',
    kind: 'merge_requests',
    pattern: r(`${PROJECT}/merge_requests/(\\d+)`),
    names: ['project_id', 'iid'],
    single: true,
  },
  { endpoint: 'mr_diffs', kind: 'diffs', pattern: r(`${PROJECT}/merge_requests/(\\d+)/diffs`), names: ['project_id', 'iid'] },
  { endpoint: 'mr_changes', kind: 'diffs', pattern: r(`${PROJECT}/merge_requests/(\\d+)/changes`), names: ['project_id', 'iid'] },
  { endpoint: 'mr_notes', kind: 'comments', pattern: r(`${PROJECT}/merge_requests/(\\d+)/notes`), names: ['project_id', 'iid'] },
  {
    endpoint: 'mr_discussions',
    kind: 'discussions',
    pattern: r(`${PROJECT}/merge_requests/(\\d+)/discussions`),
    names: ['project_id', 'iid'],
  },
  { endpoint: 'issue_notes', kind: 'comments', pattern: r(`${PROJECT}/issues/(\\d+)/notes`), names: ['project_id', 'iid'] },
  { endpoint: 'issue_discussions', kind: 'discussions', pattern: r(`${PROJECT}/issues/(\\d+)/discussions`), names: ['project_id', 'iid'] },
];

export function classifyGitlab(url: string): EndpointCall | undefined {
  const parsed = new URL(url, 'https://gitlab.com');
  return matchRoute(ROUTES, parsed.pathname, parsed.searchParams);
}

const ISSUE_SORTS = [
  'created_at',
  'updated_at',
  'priority',
  'due_date',
  'relative_position',
  'label_priority',
  'milestone_due',
  'popularity',
  'weight',
  'title',
];
const MR_SORTS = ['created_at', 'updated_at', 'title', 'merged_at', 'priority', 'label_priority', 'milestone_due', 'popularity'];

/**
 * The sort applied: the request's `order_by`/`sort`, else what the server echoed in its Link URLs
 * (GitLab writes the defaults it applied there), else GitLab's documented default.
 */
export function gitlabSortInfo(endpoint: string, query: Record<string, string>, echoed: Record<string, string>): SortInfo | undefined {
  const orderBy = query['order_by'] ?? echoed['order_by'];
  const sort = query['sort'] ?? echoed['sort'];
  const order = sort === 'asc' || sort === 'desc' ? sort : undefined;
  switch (endpoint) {
    case 'issues':
      return { sort_by: orderBy ?? 'created_at', sort_order: order ?? 'desc', available_sorts: ISSUE_SORTS };
    case 'merge_requests':
      return { sort_by: orderBy ?? 'created_at', sort_order: order ?? 'desc', available_sorts: MR_SORTS };
    case 'mr_notes':
    case 'issue_notes':
      return { sort_by: orderBy ?? 'created_at', sort_order: order ?? 'desc', available_sorts: ['created_at', 'updated_at'] };
    case 'mr_discussions':
    case 'issue_discussions':
      return { sort_by: 'created_at', sort_order: 'asc', available_sorts: [] };
    default:
      return undefined;
  }
}
