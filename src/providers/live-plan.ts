import { DataError, UsageError } from '../errors.js';
import type { JsonValue } from '../json/types.js';
import type { OpenSession } from './session.js';
import type { CallResult, DatasetKind, EndpointCall, PagingPolicy } from './types.js';

/**
 * What devboy fetches live: the first `limit` issues and pull/merge requests (page size up to
 * 100), then for the first `details` pull/merge requests their diffs, comments and review
 * discussions (Jira: the comments of the first `details` issues).
 */
export interface LivePlanOptions {
  owner?: string;
  repo?: string;
  /** Jira project key. */
  project?: string;
  jql?: string;
  limit: number;
  details: number;
  jiraApi: 2 | 3;
}

export interface LiveCallResult {
  kind: DatasetKind;
  call: EndpointCall;
  result: CallResult;
}

type Run = (call: EndpointCall, paging: PagingPolicy) => Promise<LiveCallResult>;

const DETAIL_PAGES = 3;

export async function runLivePlan(session: OpenSession, options: LivePlanOptions): Promise<LiveCallResult[]> {
  const run: Run = async (call, paging) => ({ kind: call.kind, call, result: await session.run(call, paging) });
  const perPage = String(Math.min(options.limit, 100));
  // A few pages more than the arithmetic says: servers cap page sizes (Jira at 50 or 100), and GitHub's
  // issue pages lose their pull requests. `maxItems` stops the paging once `limit` items are in.
  const listPaging: PagingPolicy = {
    maxItems: options.limit,
    maxPages: Math.ceil(options.limit / Number(perPage)) + 4,
    canFetch: () => true,
  };
  const detailPaging: PagingPolicy = { maxItems: Number.POSITIVE_INFINITY, maxPages: DETAIL_PAGES, canFetch: () => true };
  const out: LiveCallResult[] = [];

  if (session.provider === 'github') {
    const { owner, repo } = requireRepo(options);
    out.push(await run({ kind: 'issues', endpoint: 'issues', params: { owner, repo, state: 'all', per_page: perPage } }, listPaging));
    const pulls = await run(
      { kind: 'merge_requests', endpoint: 'pulls', params: { owner, repo, state: 'all', per_page: perPage } },
      listPaging,
    );
    out.push(pulls);
    for (const number of numbersOf(pulls.result.raw, 'number').slice(0, options.details)) {
      out.push(
        await run({ kind: 'diffs', endpoint: 'pull_files', params: { owner, repo, pull_number: number, per_page: '100' } }, detailPaging),
      );
      out.push(
        await run(
          { kind: 'comments', endpoint: 'issue_comments', params: { owner, repo, issue_number: number, per_page: '100' } },
          detailPaging,
        ),
      );
      out.push(
        await run(
          { kind: 'discussions', endpoint: 'review_comments', params: { owner, repo, pull_number: number, per_page: '100' } },
          detailPaging,
        ),
      );
    }
    return out;
  }

  if (session.provider === 'gitlab') {
    const { owner, repo } = requireRepo(options);
    const project_id = `${owner}/${repo}`;
    out.push(await run({ kind: 'issues', endpoint: 'issues', params: { project_id, per_page: perPage } }, listPaging));
    const mrs = await run({ kind: 'merge_requests', endpoint: 'merge_requests', params: { project_id, per_page: perPage } }, listPaging);
    out.push(mrs);
    for (const iid of numbersOf(mrs.result.raw, 'iid').slice(0, options.details)) {
      out.push(await diffsWithFallback(session, run, project_id, iid, detailPaging));
      out.push(await run({ kind: 'comments', endpoint: 'mr_notes', params: { project_id, iid, per_page: '100' } }, detailPaging));
      out.push(await run({ kind: 'discussions', endpoint: 'mr_discussions', params: { project_id, iid, per_page: '100' } }, detailPaging));
    }
    return out;
  }

  const key = options.project ?? options.repo;
  if (!key) throw new UsageError('Jira needs a project key: --project KEY (or --repo KEY)');
  const api = String(options.jiraApi);
  const jql = options.jql ?? `project = ${/^[A-Z][A-Z0-9_]*$/.test(key) ? key : JSON.stringify(key)} ORDER BY created DESC`;
  const search: EndpointCall =
    options.jiraApi === 3
      ? { kind: 'issues', endpoint: 'search_jql', params: { api, jql, maxResults: perPage, fields: '*navigable' } }
      : { kind: 'issues', endpoint: 'search', params: { api, jql, startAt: '0', maxResults: perPage } };
  const issues = await run(search, listPaging);
  out.push(issues);
  for (const issueKey of stringsOf(issues.result.raw, 'key').slice(0, options.details)) {
    out.push(
      await run(
        { kind: 'comments', endpoint: 'comments', params: { api, issue: issueKey, startAt: '0', maxResults: '100' } },
        detailPaging,
      ),
    );
  }
  return out;
}

/** `/diffs` exists since GitLab 15.7; older self-hosted servers answer 404 and have `/changes`. */
async function diffsWithFallback(
  session: OpenSession,
  run: Run,
  project_id: string,
  iid: string,
  paging: PagingPolicy,
): Promise<LiveCallResult> {
  try {
    return await run({ kind: 'diffs', endpoint: 'mr_diffs', params: { project_id, iid, per_page: '100' } }, paging);
  } catch (err) {
    if (!(err instanceof DataError) || session.transport.lastFailure()?.status !== 404) throw err;
    return run({ kind: 'diffs', endpoint: 'mr_changes', params: { project_id, iid } }, paging);
  }
}

function requireRepo(options: LivePlanOptions): { owner: string; repo: string } {
  if (!options.owner || !options.repo) throw new UsageError('--owner and --repo are required for GitHub and GitLab');
  return { owner: options.owner, repo: options.repo };
}

function numbersOf(raw: JsonValue[], field: string): string[] {
  return raw
    .map((v) => (v && typeof v === 'object' && !Array.isArray(v) ? v[field] : undefined))
    .filter((n): n is number => typeof n === 'number')
    .map(String);
}

function stringsOf(raw: JsonValue[], field: string): string[] {
  return raw
    .map((v) => (v && typeof v === 'object' && !Array.isArray(v) ? v[field] : undefined))
    .filter((s): s is string => typeof s === 'string');
}
