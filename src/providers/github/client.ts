import type { Octokit } from '@octokit/rest';
import { createTransport, type Transport } from '../../http/transport.js';
import type { JsonValue } from '../../json/types.js';
import { guardCall, namedFailures, providerError, readShape, type FailureContext } from '../failure.js';
import { asArray, asObject } from '../json-read.js';
import { parseLinkHeader } from '../link-header.js';
import { PageTrail } from '../page-trail.js';
import type { ModelItem } from '../../model/index.js';
import type { AlongsideItems, CallResult, ClientOptions, EndpointCall, PagingPolicy, ProviderClient } from '../types.js';
import { githubSortInfo } from './endpoints.js';
import {
  githubComment,
  githubFile,
  githubIssue,
  githubIssuePulls,
  githubIssues,
  githubPull,
  githubReviewThreads,
  isPullRequestItem,
  PULL_REQUESTS_ALONGSIDE,
  pullRequestsOnly,
} from './normalize.js';
import { githubPagination, type GithubPage } from './pagination.js';
import { github } from './provider.js';

const SILENT = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * Octokit, loaded only when GitHub is used: it is the heaviest module devboy has. `apiUrl` is the
 * API root: https://api.github.com, https://HOST/api/v3 for Enterprise, or a replay server.
 */
export async function openGithubClient(options: ClientOptions): Promise<ProviderClient> {
  const transport = createTransport(options.apiUrl, options.http, options.hooks);
  const { Octokit } = await import('@octokit/rest');
  const octokit = new Octokit({
    baseUrl: options.apiUrl.replace(/\/+$/, ''),
    ...(options.token ? { auth: options.token } : {}),
    userAgent: 'devboy',
    log: SILENT,
    request: { fetch: transport.fetch },
  });
  const ctx: FailureContext = {
    provider: github,
    tokenGiven: Boolean(options.token),
    secrets: [options.token],
  };
  return {
    provider: 'github',
    transport,
    run: (call, paging) => namedFailures(ctx, transport, runCall(octokit, transport, ctx, call, paging)),
  };
}

type Response = { data: unknown; headers: Record<string, string | number | undefined> };

interface ListShape {
  /** Search wraps its items: `{total_count, items}`. */
  envelope?: boolean;
  skipPullRequests?: boolean;
  toItems: (raw: JsonValue[]) => ModelItem[];
  what: string;
}

async function runCall(
  octokit: Octokit,
  transport: Transport,
  ctx: FailureContext,
  call: EndpointCall,
  paging: PagingPolicy,
): Promise<CallResult> {
  const { owner = '', repo = '', issue_number, pull_number, ...query } = call.params;
  const repoMissing = `no such repository ${owner}/${repo} on GitHub, or the token cannot see it`;
  const q = query as object;
  const base = { owner, repo };
  const list = (first: () => Promise<Response>, shape: ListShape, notFound = repoMissing) =>
    collect(octokit, transport, ctx, call, paging, first, shape, notFound);
  switch (call.endpoint) {
    case 'issues':
      return list(() => octokit.rest.issues.listForRepo({ ...base, ...q }), {
        what: 'issues',
        skipPullRequests: true,
        toItems: githubIssues,
      });
    case 'search_issues':
      return list(
        () => octokit.request(searchRoute(query['q']), omit(q, 'q')),
        { what: 'search results', envelope: true, skipPullRequests: true, toItems: githubIssues },
        'GitHub search is not available here',
      );
    case 'pulls':
      return list(() => octokit.rest.pulls.list({ ...base, ...q }), { what: 'pull requests', toItems: each(githubPull) });
    case 'pull_files':
      return list(
        () => octokit.rest.pulls.listFiles({ ...base, pull_number: Number(pull_number), ...q }),
        { what: 'pull request files', toItems: each(githubFile) },
        `no pull request #${pull_number} in ${owner}/${repo} on GitHub`,
      );
    case 'issue_comments':
      return list(
        () => octokit.rest.issues.listComments({ ...base, issue_number: Number(issue_number), ...q }),
        { what: 'issue comments', toItems: each(githubComment) },
        `no issue #${issue_number} in ${owner}/${repo} on GitHub`,
      );
    case 'repo_issue_comments':
      return list(() => octokit.rest.issues.listCommentsForRepo({ ...base, ...q }), {
        what: 'issue comments',
        toItems: each(githubComment),
      });
    case 'review_comments':
      return list(
        () => octokit.rest.pulls.listReviewComments({ ...base, pull_number: Number(pull_number), ...q }),
        { what: 'review comments', toItems: githubReviewThreads },
        `no pull request #${pull_number} in ${owner}/${repo} on GitHub`,
      );
    case 'repo_review_comments':
      return list(() => octokit.rest.pulls.listReviewCommentsForRepo({ ...base, ...q }), {
        what: 'review comments',
        toItems: githubReviewThreads,
      });
    case 'issue':
      return single(
        transport,
        ctx,
        () => octokit.rest.issues.get({ ...base, issue_number: Number(issue_number) }),
        `no issue #${issue_number} in ${owner}/${repo} on GitHub`,
        (v) => (isPullRequestItem(v) ? [] : [githubIssue(v)]),
        (v) => (isPullRequestItem(v) ? 'a pull request, read through the issues API (devboy reads pull requests from /pulls)' : undefined),
      );
    case 'pull':
      return single(
        transport,
        ctx,
        () => octokit.rest.pulls.get({ ...base, pull_number: Number(pull_number) }),
        `no pull request #${pull_number} in ${owner}/${repo} on GitHub`,
        (v) => [githubPull(v)],
      );
    default:
      throw new Error(`unknown GitHub endpoint ${call.endpoint}`);
  }
}

/** A list's items, normalized one by one. */
function each<T extends ModelItem>(normalize: (v: JsonValue) => T): (raw: JsonValue[]) => T[] {
  return (raw) => raw.map(normalize);
}

async function collect(
  octokit: Octokit,
  transport: Transport,
  ctx: FailureContext,
  call: EndpointCall,
  paging: PagingPolicy,
  first: () => Promise<Response>,
  shape: ListShape,
  notFound: string,
): Promise<CallResult> {
  const pages: GithubPage[] = [];
  const raw: JsonValue[] = [];
  const requests: string[] = [];
  let totalCount: number | undefined;
  let kept = 0;
  // The pull requests of an issues list: a list of them only is measured as merge requests, and
  // those of a mixed list as merge requests beside its issues (every item is measured).
  const pulls: JsonValue[] = [];
  let fetchPage = first;
  const trail = new PageTrail();
  for (;;) {
    const response = await guardCall(ctx, transport, notFound, fetchPage);
    const exchange = transport.journal.at(-1)!;
    trail.add(exchange.url);
    requests.push(exchange.recordedUrl ?? exchange.url);
    const link = typeof response.headers['link'] === 'string' ? response.headers['link'] : undefined;
    const read = pageItems(response, shape, (err) => providerError(ctx, transport, notFound, err));
    const items = read.items;
    if (read.totalCount !== undefined) totalCount = read.totalCount;
    pages.push({ url: exchange.url, link, count: items.length });
    // One push per item: spreading a page of 100k+ items into arguments overflows the stack.
    for (const item of items) {
      if (shape.skipPullRequests && isPullRequestItem(item)) pulls.push(item);
      else raw.push(item);
    }
    kept = raw.length;
    // `limit` counts the list's own items; a list of pull requests only, those.
    const counted = kept === 0 ? pulls.length : kept;
    const next = nextPageUrl(link, trail, paging, pages.length, counted);
    if (next === undefined) break;
    fetchPage = () => octokit.request({ method: 'GET', url: next });
  }
  const sort = githubSortInfo(call.endpoint, call.params);
  const pagination = githubPagination(pages, totalCount);
  if (raw.length === 0 && pullRequestsOnly(pulls)) {
    const items = readShape(ctx, transport, () => githubIssuePulls(pulls));
    return { kind: 'merge_requests', items, raw: pulls, pagination, ...(sort ? { sort_info: sort } : {}), requests };
  }
  const items = readShape(ctx, transport, () => shape.toItems(raw));
  const alongside: AlongsideItems | undefined =
    pulls.length > 0
      ? { ...PULL_REQUESTS_ALONGSIDE, items: readShape(ctx, transport, () => githubIssuePulls(pulls)), raw: pulls }
      : undefined;
  return { items, raw, pagination, ...(sort ? { sort_info: sort } : {}), requests, ...(alongside ? { alongside } : {}) };
}

/** The next API page, unless the list ends or loops there, or the paging policy's limits are reached. */
function nextPageUrl(
  link: string | undefined,
  trail: PageTrail,
  paging: PagingPolicy,
  pagesRead: number,
  itemsRead: number,
): string | undefined {
  const next = parseLinkHeader(link)['next'];
  if (!next || trail.has(next) || pagesRead >= paging.maxPages || itemsRead >= paging.maxItems || !paging.canFetch(next)) return undefined;
  return next;
}

/** One API page's items; a search result's envelope also gives the total count. */
function pageItems(response: Response, shape: ListShape, failure: (err: unknown) => Error): { items: JsonValue[]; totalCount?: number } {
  try {
    if (!shape.envelope) return { items: asArray(response.data, `the list of ${shape.what}`) };
    const body = asObject(response.data, 'the search result');
    const items = asArray(body['items'], 'the search result items');
    return typeof body['total_count'] === 'number' ? { items, totalCount: body['total_count'] } : { items };
  } catch (err) {
    throw failure(err);
  }
}

async function single(
  transport: Transport,
  ctx: FailureContext,
  get: () => Promise<Response>,
  notFound: string,
  toItems: (v: JsonValue) => ModelItem[],
  leftOut: (v: JsonValue) => string | undefined = () => undefined,
): Promise<CallResult> {
  const response = await guardCall(ctx, transport, notFound, get);
  const exchange = transport.journal.at(-1)!;
  const value = response.data as JsonValue;
  const items = readShape(ctx, transport, () => toItems(value));
  const why = items.length === 0 ? leftOut(value) : undefined;
  return {
    items,
    raw: items.length > 0 ? [value] : [],
    requests: [exchange.recordedUrl ?? exchange.url],
    ...(why ? { leftOut: why } : {}),
  };
}

/**
 * Octokit leaves `+` in `q` as it is, and GitHub reads a bare `+` as a space: `language:C++` would ask
 * for `language:C`. Percent-encoded in the route, the query reaches GitHub exactly as written.
 */
function searchRoute(q: string | undefined): string {
  return q === undefined ? 'GET /search/issues' : `GET /search/issues?q=${encodeURIComponent(q)}`;
}

function omit(o: object, key: string): Record<string, unknown> {
  const { [key]: _omitted, ...rest } = o as Record<string, unknown>;
  return rest;
}
