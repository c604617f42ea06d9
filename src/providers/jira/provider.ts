import { UsageError } from '../../errors.js';
import { apiUrlFrom, pick, pickToken } from '../credentials.js';
import { envelopeOf, type ProviderModule } from '../provider-module.js';
import { classifyJira, jiraSortInfo } from './endpoints.js';
import { jiraLivePlan, jiraProjectKey } from './live-plan.js';
import { jiraOffsetPagination } from './pagination.js';
import { jiraShapes } from './shapes.js';

export const jira: ProviderModule = {
  name: 'jira',
  display: 'Jira',
  authHint: 'JIRA_EMAIL and JIRA_API_TOKEN (Jira Cloud) or JIRA_PAT (Server/Data Center), with JIRA_HOST',
  // JIRA_HOST, with JIRA_EMAIL + JIRA_API_TOKEN (Cloud) or JIRA_PAT (Server/Data Center);
  // JIRA_API_VERSION, else 3 on *.atlassian.net and 2 elsewhere.
  credentials: (options, env) => {
    if (!pick(options.host, env['JIRA_HOST']))
      throw new UsageError('Jira needs a site: set JIRA_HOST or --host (e.g. https://example.atlassian.net)');
    const apiUrl = apiUrlFrom(options.host, env['JIRA_HOST'], '', 'JIRA_HOST');
    const email = pick(options.email, env['JIRA_EMAIL']);
    const token = email
      ? pickToken(['--token', options.token], ['JIRA_API_TOKEN', env['JIRA_API_TOKEN']])
      : pickToken(['--token', options.token], ['JIRA_PAT', env['JIRA_PAT']], ['JIRA_API_TOKEN', env['JIRA_API_TOKEN']]);
    if (email && !token) throw new UsageError('JIRA_EMAIL is set but no API token: set JIRA_API_TOKEN (or --token)');
    const fromEnv = env['JIRA_API_VERSION'] === '3' ? 3 : env['JIRA_API_VERSION'] === '2' ? 2 : undefined;
    const apiVersion = options.apiVersion ?? fromEnv ?? (/\.atlassian\.net$/i.test(new URL(apiUrl).hostname) ? 3 : 2);
    return { apiUrl, ...(token ? { token } : {}), ...(email ? { email } : {}), apiVersion };
  },
  projectName: (target) => jiraProjectKey(target),
  sourceRepo: (target) => jiraProjectKey(target),
  classify: classifyJira,
  responseMeta: (call, { body, count }) => {
    const envelope = envelopeOf(body);
    const num = (k: string) => (typeof envelope?.[k] === 'number' ? (envelope[k] as number) : undefined);
    const startAt = num('startAt');
    const pagination =
      startAt !== undefined
        ? jiraOffsetPagination([{ startAt, maxResults: num('maxResults'), total: num('total'), count }], undefined)
        : undefined;
    const sort = jiraSortInfo(call.endpoint, call.params);
    return { ...(pagination ? { pagination } : {}), ...(sort ? { sort } : {}) };
  },
  itemShapes: jiraShapes,
  openClient: async (options) => (await import('./client.js')).openJiraClient(options),
  runLivePlan: jiraLivePlan,
};
