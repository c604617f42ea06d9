import { livePaging, numbersOf, requireRepo, type LiveCallResult, type LivePlanOptions } from '../live-plan.js';
import type { ProviderClient } from '../types.js';

/** Issues and pull requests, then the files, comments and review comments of the first `details` pull requests. */
export async function githubLivePlan(client: ProviderClient, options: LivePlanOptions): Promise<LiveCallResult[]> {
  const { run, perPage, list, detail } = livePaging(client, options);
  const { owner, repo } = requireRepo(options);
  const out: LiveCallResult[] = [];
  out.push(await run({ kind: 'issues', endpoint: 'issues', params: { owner, repo, state: 'all', per_page: perPage } }, list));
  const pulls = await run({ kind: 'merge_requests', endpoint: 'pulls', params: { owner, repo, state: 'all', per_page: perPage } }, list);
  out.push(pulls);
  for (const number of numbersOf(pulls.result.raw, 'number').slice(0, options.details)) {
    out.push(await run({ kind: 'diffs', endpoint: 'pull_files', params: { owner, repo, pull_number: number, per_page: '100' } }, detail));
    out.push(
      await run({ kind: 'comments', endpoint: 'issue_comments', params: { owner, repo, issue_number: number, per_page: '100' } }, detail),
    );
    out.push(
      await run(
        { kind: 'discussions', endpoint: 'review_comments', params: { owner, repo, pull_number: number, per_page: '100' } },
        detail,
      ),
    );
  }
  return out;
}
