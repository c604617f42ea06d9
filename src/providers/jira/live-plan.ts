import { livePaging, stringsOf, type LiveCallResult, type LivePlanOptions } from '../live-plan.js';
import type { EndpointCall, ProviderClient } from '../types.js';
import { UsageError } from '../../errors.js';
import type { LiveTarget } from '../provider-module.js';

/** A search of the project (or `jql`), then the comments of the first `details` issues. */
export async function jiraLivePlan(client: ProviderClient, options: LivePlanOptions): Promise<LiveCallResult[]> {
  const { run, perPage, list, detail } = livePaging(client, options);
  const key = jiraProjectKey(options);
  const api = String(options.apiVersion ?? 2);
  const jql = options.jql ?? `project = ${/^[A-Z][A-Z0-9_]*$/.test(key) ? key : JSON.stringify(key)} ORDER BY created DESC`;
  const search: EndpointCall =
    api === '3'
      ? { kind: 'issues', endpoint: 'search_jql', params: { api, jql, maxResults: perPage, fields: '*navigable' } }
      : { kind: 'issues', endpoint: 'search', params: { api, jql, startAt: '0', maxResults: perPage } };
  const issues = await run(search, list);
  const out: LiveCallResult[] = [issues];
  for (const issueKey of stringsOf(issues.result.raw, 'key').slice(0, options.details)) {
    out.push(
      await run({ kind: 'comments', endpoint: 'comments', params: { api, issue: issueKey, startAt: '0', maxResults: '100' } }, detail),
    );
  }
  return out;
}

/** The project key: `--project`, or `--repo` for those who type it there. */
export function jiraProjectKey(target: LiveTarget): string {
  const key = target.project ?? target.repo;
  if (!key) throw new UsageError('Jira needs a project key: --project KEY (or --repo KEY)');
  return key;
}
