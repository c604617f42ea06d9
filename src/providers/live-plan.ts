import { UsageError } from '../errors.js';
import type { JsonValue } from '../json/types.js';
import type { DatasetKind } from '../model/index.js';
import type { CallResult, EndpointCall, PagingPolicy, ProviderClient } from './types.js';

/**
 * What devboy fetches live: the first `limit` issues and pull/merge requests (page size up to
 * 100), then for the first `details` pull/merge requests their diffs, comments and review
 * discussions (Jira: the comments of the first `details` issues). Each provider's module says
 * which endpoints those are; this module holds what the plans share.
 */
export interface LivePlanOptions {
  owner?: string;
  repo?: string;
  /** Jira project key. */
  project?: string;
  jql?: string;
  limit: number;
  details: number;
  apiVersion?: number;
}

export interface LiveCallResult {
  kind: DatasetKind;
  call: EndpointCall;
  result: CallResult;
}

export type LiveRun = (call: EndpointCall, paging: PagingPolicy) => Promise<LiveCallResult>;

const DETAIL_PAGES = 3;

export interface LivePaging {
  run: LiveRun;
  /** Page size of list calls, as the query parameter. */
  perPage: string;
  list: PagingPolicy;
  detail: PagingPolicy;
}

export function livePaging(client: ProviderClient, options: LivePlanOptions): LivePaging {
  const perPage = String(Math.min(options.limit, 100));
  return {
    run: async (call, paging) => {
      const result = await client.run(call, paging);
      // The items may be of another kind than the call's: an issues list of pull requests only.
      return { kind: result.kind ?? call.kind, call, result };
    },
    perPage,
    // A few pages more than the arithmetic says: servers cap page sizes (Jira at 50 or 100), and GitHub's
    // issue pages lose their pull requests. `maxItems` stops the paging once `limit` items are in.
    list: { maxItems: options.limit, maxPages: Math.ceil(options.limit / Number(perPage)) + 4, canFetch: () => true },
    detail: { maxItems: Number.POSITIVE_INFINITY, maxPages: DETAIL_PAGES, canFetch: () => true },
  };
}

export function requireRepo(options: { owner?: string; repo?: string }): { owner: string; repo: string } {
  if (!options.owner || !options.repo) throw new UsageError('--owner and --repo are required for GitHub and GitLab');
  return { owner: options.owner, repo: options.repo };
}

export function numbersOf(raw: JsonValue[], field: string): string[] {
  return raw
    .map((v) => (v && typeof v === 'object' && !Array.isArray(v) ? v[field] : undefined))
    .filter((n): n is number => typeof n === 'number')
    .map(String);
}

export function stringsOf(raw: JsonValue[], field: string): string[] {
  return raw
    .map((v) => (v && typeof v === 'object' && !Array.isArray(v) ? v[field] : undefined))
    .filter((s): s is string => typeof s === 'string');
}

/** `owner/repo`, as provenance names a repository. */
export function repoSource(options: { owner?: string; repo?: string }): string {
  const { owner, repo } = requireRepo(options);
  return `${owner}/${repo}`;
}

/** `owner__repo` as in corpus folder names (GitLab subgroups too). */
export function repoProjectName(options: { owner?: string; repo?: string }): string {
  const { owner, repo } = requireRepo(options);
  return `${owner}/${repo}`.split('/').filter(Boolean).join('__');
}
