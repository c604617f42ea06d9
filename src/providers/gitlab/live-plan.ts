import { DataError } from '../../errors.js';
import { livePaging, numbersOf, requireRepo, type LiveCallResult, type LivePlanOptions, type LiveRun } from '../live-plan.js';
import type { PagingPolicy, ProviderClient } from '../types.js';

/** Issues and merge requests, then the diffs, notes and discussions of the first `details` merge requests. */
export async function gitlabLivePlan(client: ProviderClient, options: LivePlanOptions): Promise<LiveCallResult[]> {
  const { run, perPage, list, detail } = livePaging(client, options);
  const { owner, repo } = requireRepo(options);
  const project_id = `${owner}/${repo}`;
  const out: LiveCallResult[] = [];
  out.push(await run({ kind: 'issues', endpoint: 'issues', params: { project_id, per_page: perPage } }, list));
  const mrs = await run({ kind: 'merge_requests', endpoint: 'merge_requests', params: { project_id, per_page: perPage } }, list);
  out.push(mrs);
  for (const iid of numbersOf(mrs.result.raw, 'iid').slice(0, options.details)) {
    out.push(await diffsWithFallback(client, run, project_id, iid, detail));
    out.push(await run({ kind: 'comments', endpoint: 'mr_notes', params: { project_id, iid, per_page: '100' } }, detail));
    out.push(await run({ kind: 'discussions', endpoint: 'mr_discussions', params: { project_id, iid, per_page: '100' } }, detail));
  }
  return out;
}

/** `/diffs` exists since GitLab 15.7; older self-hosted servers answer 404 and have `/changes`. */
async function diffsWithFallback(
  client: ProviderClient,
  run: LiveRun,
  project_id: string,
  iid: string,
  paging: PagingPolicy,
): Promise<LiveCallResult> {
  try {
    return await run({ kind: 'diffs', endpoint: 'mr_diffs', params: { project_id, iid, per_page: '100' } }, paging);
  } catch (err) {
    if (!(err instanceof DataError) || client.transport.lastFailure()?.status !== 404) throw err;
    return run({ kind: 'diffs', endpoint: 'mr_changes', params: { project_id, iid } }, paging);
  }
}
