import { apiUrlFrom, pickToken } from '../credentials.js';
import type { JsonValue } from '../../json/types.js';
import type { EndpointCall } from '../types.js';
import { atMostOne, envelopeOf, headerOf, type ProviderModule } from '../provider-module.js';
import { repoProjectName, repoSource } from '../live-plan.js';
import { classifyGithub, githubSortInfo } from './endpoints.js';
import { githubLivePlan } from './live-plan.js';
import { isPullRequestItem, PULL_REQUESTS_ALONGSIDE, pullRequestsOnly } from './normalize.js';
import { githubPagination } from './pagination.js';
import { GITHUB_SHAPES } from './shapes.js';

export const github: ProviderModule = {
  name: 'github',
  display: 'GitHub',
  authHint: 'GITHUB_TOKEN (or --token)',
  // GITHUB_TOKEN (or GH_TOKEN); GITHUB_API_URL for Enterprise. Public data is readable without a token.
  credentials: (options, env) => {
    const token = pickToken(['--token', options.token], ['GITHUB_TOKEN', env['GITHUB_TOKEN']], ['GH_TOKEN', env['GH_TOKEN']]);
    return {
      apiUrl: apiUrlFrom(options.host, env['GITHUB_API_URL'], 'https://api.github.com', 'GITHUB_API_URL'),
      ...(token ? { token } : {}),
    };
  },
  projectName: repoProjectName,
  sourceRepo: repoSource,
  classify: atMostOne(classifyGithub),
  recordedKind: (call, body) => {
    const items = issueListItems(call, body);
    return items && pullRequestsOnly(items) ? 'merge_requests' : undefined;
  },
  recordedAlongside: (call, body) => {
    const items = issueListItems(call, body);
    return items?.some(isPullRequestItem) && !pullRequestsOnly(items) ? PULL_REQUESTS_ALONGSIDE : undefined;
  },
  responseMeta: (call, { url, headers, body, count }) => {
    if (call.single) return {};
    const envelope = envelopeOf(body);
    const pagination = githubPagination(
      [{ url, link: headerOf(headers, 'link'), count: Array.isArray(body) ? body.length : count }],
      typeof envelope?.['total_count'] === 'number' ? envelope['total_count'] : undefined,
    );
    const sort = githubSortInfo(call.endpoint, call.params);
    return { pagination, ...(sort ? { sort } : {}) };
  },
  itemShapes: () => GITHUB_SHAPES,
  openClient: async (options) => (await import('./client.js')).openGithubClient(options),
  runLivePlan: githubLivePlan,
};

/** The items of a recorded issues or search list (the issues API lists pull requests too); undefined for other endpoints. */
function issueListItems(call: EndpointCall, body: JsonValue): JsonValue[] | undefined {
  if (call.endpoint !== 'issues' && call.endpoint !== 'search_issues') return undefined;
  const items = Array.isArray(body) ? body : envelopeOf(body)?.['items'];
  return Array.isArray(items) ? items : undefined;
}
