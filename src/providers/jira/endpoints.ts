import type { SortInfo } from '../../model/index.js';
import { decodeSegment } from '../routes.js';
import type { EndpointCall } from '../types.js';

/**
 * The Jira endpoints devboy reads, recognised from a recorded URL. A single issue yields two calls:
 * the issue itself, and the comments embedded in its `fields.comment`.
 */
export function classifyJira(url: string): EndpointCall[] {
  const parsed = new URL(url, 'https://jira.invalid');
  const path = parsed.pathname.replace(/\/+$/, '');
  const query = Object.fromEntries(parsed.searchParams);
  let m: RegExpExecArray | null;
  if ((m = /^\/rest\/api\/(2)\/search$/.exec(path))) return [{ kind: 'issues', endpoint: 'search', params: { api: m[1]!, ...query } }];
  if ((m = /^\/rest\/api\/([23])\/search\/jql$/.exec(path)))
    return [{ kind: 'issues', endpoint: 'search_jql', params: { api: m[1]!, ...query } }];
  if ((m = /^\/rest\/api\/([23])\/issue\/([^/]+)\/comment$/.exec(path))) {
    const issue = decodeSegment(m[2]!);
    return issue === undefined ? [] : [{ kind: 'comments', endpoint: 'comments', params: { api: m[1]!, issue, ...query } }];
  }
  if ((m = /^\/rest\/api\/([23])\/issue\/([^/]+)$/.exec(path))) {
    const issue = decodeSegment(m[2]!);
    if (issue === undefined) return [];
    const params = { api: m[1]!, issue, ...query };
    return [
      { kind: 'issues', endpoint: 'issue', params, single: true },
      { kind: 'comments', endpoint: 'issue_comments', params },
    ];
  }
  return [];
}

const SEARCH_SORTS = ['created', 'updated', 'priority', 'key', 'status', 'assignee', 'reporter', 'duedate', 'resolutiondate', 'rank'];

/**
 * A search is sorted by its JQL's ORDER BY (first field; a field without ASC/DESC is taken as
 * ascending, Jira's default for most fields). Without ORDER BY the order is Jira's choice: unknown.
 */
export function jiraSortInfo(endpoint: string, query: Record<string, string>): SortInfo | undefined {
  if (endpoint === 'search' || endpoint === 'search_jql') {
    const order = /\border\s+by\s+("[^"]+"|[^\s,]+)(?:\s+(asc|desc))?/i.exec(query['jql'] ?? '');
    if (!order) return undefined;
    return {
      sort_by: order[1]!.replace(/^"|"$/g, ''),
      sort_order: order[2]?.toLowerCase() === 'desc' ? 'desc' : 'asc',
      available_sorts: SEARCH_SORTS,
    };
  }
  if (endpoint === 'comments' || endpoint === 'issue_comments') {
    return { sort_by: 'created', sort_order: query['orderBy']?.startsWith('-') ? 'desc' : 'asc', available_sorts: ['created'] };
  }
  return undefined;
}
