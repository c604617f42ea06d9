import { apiUrlFrom, pickToken } from '../credentials.js';
import { atMostOne, type ProviderModule } from '../provider-module.js';
import { repoProjectName, repoSource } from '../live-plan.js';
import { classifyGitlab, gitlabSortInfo } from './endpoints.js';
import { gitlabLivePlan } from './live-plan.js';
import { echoedParams, gitlabPagination } from './pagination.js';
import { GITLAB_SHAPES } from './shapes.js';

export const gitlab: ProviderModule = {
  name: 'gitlab',
  display: 'GitLab',
  authHint: 'GITLAB_TOKEN (or --token), and GITLAB_HOST for a self-hosted GitLab',
  // GITLAB_TOKEN; GITLAB_HOST for a self-hosted GitLab. Public projects are readable without a token.
  credentials: (options, env) => {
    const token = pickToken(['--token', options.token], ['GITLAB_TOKEN', env['GITLAB_TOKEN']]);
    return { apiUrl: apiUrlFrom(options.host, env['GITLAB_HOST'], 'https://gitlab.com', 'GITLAB_HOST'), ...(token ? { token } : {}) };
  },
  projectName: repoProjectName,
  sourceRepo: repoSource,
  classify: atMostOne(classifyGitlab),
  responseMeta: (call, { url, headers, count }) => {
    if (call.single) return {};
    const h = new Headers(Object.entries(headers).filter(([, v]) => typeof v === 'string'));
    const pagination = gitlabPagination([{ url, headers: h, count }]);
    const sort = gitlabSortInfo(call.endpoint, call.params, echoedParams(h));
    return { pagination, ...(sort ? { sort } : {}) };
  },
  itemShapes: () => GITLAB_SHAPES,
  openClient: async (options) => (await import('./client.js')).openGitlabClient(options),
  runLivePlan: gitlabLivePlan,
};
