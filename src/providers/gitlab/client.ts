import { createTransport, type Transport } from '../../http/transport.js';
import type { JsonValue } from '../../json/types.js';
import { guardCall, namedFailures, providerError, readShape, type FailureContext } from '../failure.js';
import { asArray } from '../json-read.js';
import { PageTrail } from '../page-trail.js';
import type { ModelItem } from '../../model/index.js';
import type { CallResult, ClientOptions, EndpointCall, PagingPolicy, ProviderClient } from '../types.js';
import { gitlabSortInfo } from './endpoints.js';
import { changesOf, gitlabDiff, gitlabDiscussion, gitlabIssue, gitlabMergeRequest, gitlabNote } from './normalize.js';
import { echoedParams, gitlabPagination, type GitlabPage } from './pagination.js';
import { gitlab } from './provider.js';
import { createGitlabRequesterFn } from './requester.js';

/** The few Gitbeaker resources devboy calls, typed loosely: its generics do not help with recorded string parameters. */
interface GitlabApi {
  Issues: { all(o: object): Promise<unknown>; show(iid: number, o: object): Promise<unknown> };
  MergeRequests: {
    all(o: object): Promise<unknown>;
    show(project: string, iid: number, o: object): Promise<unknown>;
    allDiffs(project: string, iid: number, o: object): Promise<unknown>;
    showChanges(project: string, iid: number, o: object): Promise<unknown>;
  };
  MergeRequestNotes: { all(project: string, iid: number, o: object): Promise<unknown> };
  MergeRequestDiscussions: { all(project: string, iid: number, o: object): Promise<unknown> };
  IssueNotes: { all(project: string, iid: number, o: object): Promise<unknown> };
  IssueDiscussions: { all(project: string, iid: number, o: object): Promise<unknown> };
}

/** Gitbeaker on devboy's transport. `apiUrl`: https://gitlab.com, a self-hosted GitLab, or a replay server; Gitbeaker adds /api/v4. */
export async function openGitlabClient(options: ClientOptions): Promise<ProviderClient> {
  const transport = createTransport(options.apiUrl, options.http, options.hooks);
  const requesterFn = await createGitlabRequesterFn(transport);
  const { Gitlab } = await import('@gitbeaker/rest');
  // queryTimeout 0: the transport owns timeouts, per attempt.
  const api = new Gitlab({
    host: options.apiUrl.replace(/\/+$/, ''),
    ...(options.token ? { token: options.token } : {}),
    requesterFn,
    queryTimeout: 0,
  } as never) as unknown as GitlabApi;
  const ctx: FailureContext = {
    provider: gitlab,
    tokenGiven: Boolean(options.token),
    secrets: [options.token],
  };
  return {
    provider: 'gitlab',
    transport,
    run: (call, paging) => namedFailures(ctx, transport, runCall(api, transport, ctx, call, paging)),
  };
}

type PageFetch = (page: string) => Promise<unknown>;

async function runCall(
  api: GitlabApi,
  transport: Transport,
  ctx: FailureContext,
  call: EndpointCall,
  paging: PagingPolicy,
): Promise<CallResult> {
  const { project_id: projectId = '', iid: iidText, page = '1', ...query } = call.params;
  const iid = Number(iidText);
  const missing = `no such project ${projectId} on this GitLab, or the token cannot see it`;
  const list = (fetchPage: PageFetch, toItems: (raw: JsonValue[]) => ModelItem[], notFound = missing) =>
    collect(transport, ctx, call, paging, page, fetchPage, toItems, notFound);
  const each =
    <T extends ModelItem>(normalize: (v: JsonValue) => T) =>
    (raw: JsonValue[]) =>
      raw.map(normalize);
  const opts = (p: string) => ({ ...query, page: p, showExpanded: true });
  const mrMissing = `no merge request !${iidText} in ${projectId}, or the token cannot see it`;
  const issueMissing = `no issue #${iidText} in ${projectId}, or the token cannot see it`;
  switch (call.endpoint) {
    case 'issues':
      return list((p) => api.Issues.all({ projectId, ...opts(p) }), each(gitlabIssue));
    case 'merge_requests':
      return list((p) => api.MergeRequests.all({ projectId, ...opts(p) }), each(gitlabMergeRequest));
    case 'mr_diffs':
      return list((p) => api.MergeRequests.allDiffs(projectId, iid, opts(p)), each(gitlabDiff), mrMissing);
    case 'mr_notes':
      return list(
        (p) => api.MergeRequestNotes.all(projectId, iid, opts(p)),
        each((v) => gitlabNote(v)),
        mrMissing,
      );
    case 'mr_discussions':
      return list((p) => api.MergeRequestDiscussions.all(projectId, iid, opts(p)), each(gitlabDiscussion), mrMissing);
    case 'issue_notes':
      return list(
        (p) => api.IssueNotes.all(projectId, iid, opts(p)),
        each((v) => gitlabNote(v)),
        issueMissing,
      );
    case 'issue_discussions':
      return list((p) => api.IssueDiscussions.all(projectId, iid, opts(p)), each(gitlabDiscussion), issueMissing);
    case 'issue':
      return single(
        transport,
        ctx,
        () => api.Issues.show(iid, { projectId, ...query, showExpanded: true }),
        issueMissing,
        (v) => ({ raw: [v], items: [gitlabIssue(v)] }),
      );
    case 'merge_request':
      return single(
        transport,
        ctx,
        () => api.MergeRequests.show(projectId, iid, { ...query, showExpanded: true }),
        mrMissing,
        (v) => ({ raw: [v], items: [gitlabMergeRequest(v)] }),
      );
    case 'mr_changes':
      return single(
        transport,
        ctx,
        () => api.MergeRequests.showChanges(projectId, iid, { ...query, showExpanded: true }),
        mrMissing,
        (v) => {
          const raw = changesOf(v);
          return { raw, items: raw.map(gitlabDiff) };
        },
      );
    default:
      throw new Error(`unknown GitLab endpoint ${call.endpoint}`);
  }
}

/**
 * Pages are fetched one at a time with an explicit `page` (Gitbeaker would otherwise follow every
 * `next` link on its own), so replay can stop where the recording stops.
 */
async function collect(
  transport: Transport,
  ctx: FailureContext,
  call: EndpointCall,
  paging: PagingPolicy,
  firstPage: string,
  fetchPage: PageFetch,
  toItems: (raw: JsonValue[]) => ModelItem[],
  notFound: string,
): Promise<CallResult> {
  const pages: GitlabPage[] = [];
  const raw: JsonValue[] = [];
  const requests: string[] = [];
  let page = firstPage;
  const trail = new PageTrail();
  for (;;) {
    const response = (await guardCall(ctx, transport, notFound, () => fetchPage(page))) as { data?: unknown };
    const exchange = transport.journal.at(-1)!;
    trail.add(exchange.url);
    requests.push(exchange.recordedUrl ?? exchange.url);
    let items: JsonValue[];
    try {
      items = asArray(response?.data, `the ${call.endpoint.replace(/_/g, ' ')} list`);
    } catch (err) {
      throw providerError(ctx, transport, notFound, err);
    }
    pages.push({ url: exchange.url, headers: exchange.headers, count: items.length });
    // One push per item: spreading a page of 100k+ items into arguments overflows the stack.
    for (const item of items) raw.push(item);
    const next = exchange.headers.get('x-next-page')?.trim();
    if (!next || pages.length >= paging.maxPages || raw.length >= paging.maxItems) break;
    const nextUrl = new URL(exchange.url);
    nextUrl.searchParams.set('page', next);
    if (trail.has(nextUrl.toString()) || !paging.canFetch(nextUrl.toString())) break;
    page = next;
  }
  const items = readShape(ctx, transport, () => toItems(raw));
  const sort = gitlabSortInfo(call.endpoint, call.params, echoedParams(pages[0]!.headers));
  return { items, raw, pagination: gitlabPagination(pages), ...(sort ? { sort_info: sort } : {}), requests };
}

async function single(
  transport: Transport,
  ctx: FailureContext,
  get: () => Promise<unknown>,
  notFound: string,
  read: (v: JsonValue) => { raw: JsonValue[]; items: ModelItem[] },
): Promise<CallResult> {
  const response = (await guardCall(ctx, transport, notFound, get)) as { data?: unknown };
  const exchange = transport.journal.at(-1)!;
  const { raw, items } = readShape(ctx, transport, () => read(response?.data as JsonValue));
  return { items, raw, requests: [exchange.recordedUrl ?? exchange.url] };
}
