import { createTransport, type Transport } from '../../http/transport.js';
import type { JsonObject, JsonValue } from '../../json/types.js';
import { guardCall, namedFailures, readShape, type FailureContext } from '../failure.js';
import { asArray, asObject, optNumber, optObject, optString } from '../json-read.js';
import { PageTrail } from '../page-trail.js';
import type { ModelItem } from '../../model/index.js';
import type { CallResult, ClientOptions, EndpointCall, PagingPolicy, ProviderClient } from '../types.js';
import { secretsOf } from '../credentials.js';
import { jiraSortInfo } from './endpoints.js';
import { jira } from './provider.js';
import { jiraComment, jiraIssue } from './normalize.js';
import { jiraOffsetPagination, jiraTokenPagination, type JiraOffsetPage } from './pagination.js';

/** The jira.js calls devboy makes, typed loosely: recorded parameters arrive as strings. */
interface JiraClient {
  issueSearch: { searchForIssuesUsingJql(p: object): Promise<unknown>; searchForIssuesUsingJqlEnhancedSearch(p: object): Promise<unknown> };
  issues: { getIssue(p: object): Promise<unknown> };
  issueComments: { getComments(p: object): Promise<unknown> };
}

const SEARCH_PARAMS = ['validateQuery', 'fields', 'expand', 'properties', 'fieldsByKeys', 'failFast', 'reconcileIssues'];

/**
 * jira.js on devboy's transport. `apiUrl` is the site or a replay server; `browseBase` the site's
 * public URL for issue links (defaults to `apiUrl`). A token with `email` is Cloud basic auth; a
 * token alone is a Server/Data Center personal access token, sent as Bearer.
 */
export async function openJiraClient(options: ClientOptions): Promise<ProviderClient> {
  const transport = createTransport(options.apiUrl, options.http, options.hooks);
  const { Version2Client, Version3Client } = await import('jira.js');
  const authentication = options.token
    ? options.email
      ? { basic: { email: options.email, apiToken: options.token } }
      : { oauth2: { accessToken: options.token } }
    : undefined;
  const config = {
    host: options.apiUrl.replace(/\/+$/, ''),
    ...(authentication ? { authentication } : {}),
    // jira.js uses axios; its fetch adapter lets devboy's transport carry every request.
    baseRequestConfig: { adapter: 'fetch', env: { fetch: transport.fetch } },
  };
  const clients: Record<string, JiraClient> = {};
  const client = (api: string): JiraClient =>
    (clients[api] ??= (api === '3' ? new Version3Client(config as never) : new Version2Client(config as never)) as unknown as JiraClient);
  const ctx: FailureContext = {
    provider: jira,
    tokenGiven: Boolean(options.token),
    secrets: secretsOf(options),
  };
  const browseBase = options.browseBase ?? options.apiUrl;
  return {
    provider: 'jira',
    transport,
    run: (call, paging) =>
      namedFailures(ctx, transport, runCall(client(call.params['api'] ?? '2'), transport, ctx, browseBase, call, paging)),
  };
}

async function runCall(
  client: JiraClient,
  transport: Transport,
  ctx: FailureContext,
  browseBase: string,
  call: EndpointCall,
  paging: PagingPolicy,
): Promise<CallResult> {
  const p = call.params;
  const sort = jiraSortInfo(call.endpoint, p);
  const withSort = (r: CallResult): CallResult => (sort ? { ...r, sort_info: sort } : r);
  const issueMissing = `no issue ${p['issue']} on this Jira, or the credentials cannot see it`;
  const searchFailed = 'Jira found no search endpoint here (is JIRA_HOST the site URL?)';
  const extra: Record<string, string> = {};
  for (const name of SEARCH_PARAMS) if (p[name] !== undefined) extra[name] = p[name]!;
  const toIssue = (v: JsonValue) => jiraIssue(v, browseBase);
  switch (call.endpoint) {
    case 'search':
      return withSort(
        await offsetPages(
          transport,
          ctx,
          paging,
          searchFailed,
          'issues',
          Number(p['startAt'] ?? 0),
          num(p['maxResults']),
          (startAt) =>
            client.issueSearch.searchForIssuesUsingJql({
              jql: p['jql'],
              startAt,
              ...(num(p['maxResults']) ? { maxResults: num(p['maxResults']) } : {}),
              ...extra,
            }),
          toIssue,
        ),
      );
    case 'search_jql':
      return withSort(await tokenPages(client, transport, ctx, paging, searchFailed, p, extra, toIssue));
    case 'comments':
      return withSort(
        await offsetPages(
          transport,
          ctx,
          paging,
          issueMissing,
          'comments',
          Number(p['startAt'] ?? 0),
          num(p['maxResults']),
          (startAt) =>
            client.issueComments.getComments({
              issueIdOrKey: p['issue'],
              startAt,
              ...(num(p['maxResults']) ? { maxResults: num(p['maxResults']) } : {}),
              ...(p['orderBy'] ? { orderBy: p['orderBy'] } : {}),
              ...(p['expand'] ? { expand: p['expand'] } : {}),
            }),
          jiraComment,
        ),
      );
    case 'issue':
    case 'issue_comments':
      return issueOrItsComments(client, transport, ctx, call, issueMissing, toIssue, withSort);
    default:
      throw new Error(`unknown Jira endpoint ${call.endpoint}`);
  }
}

/** One issue, or the comments Jira embeds in it. */
async function issueOrItsComments(
  client: JiraClient,
  transport: Transport,
  ctx: FailureContext,
  call: EndpointCall,
  issueMissing: string,
  toIssue: (v: JsonValue) => ModelItem,
  withSort: (r: CallResult) => CallResult,
): Promise<CallResult> {
  const p = call.params;
  const body = await guardCall(ctx, transport, issueMissing, () =>
    client.issues.getIssue({
      issueIdOrKey: p['issue'],
      ...(p['fields'] ? { fields: p['fields'] } : {}),
      ...(p['expand'] ? { expand: p['expand'] } : {}),
    }),
  );
  const exchange = transport.journal.at(-1)!;
  const requests = [exchange.recordedUrl ?? exchange.url];
  return readShape(ctx, transport, () => {
    const issue = asObject(body, 'the issue');
    if (call.endpoint === 'issue') return { items: [toIssue(issue)], raw: [issue], requests };
    // The comments Jira embeds in an issue come in the same envelope as the comments endpoint's.
    const envelope = optObject(optObject(issue, 'fields'), 'comment');
    if (!envelope) return { items: [], raw: [], requests };
    const raw = asArray(envelope['comments'] ?? [], 'the embedded comments');
    const page = offsetPage(envelope, raw.length);
    return withSort({ items: raw.map(jiraComment), raw, pagination: jiraOffsetPagination([page], undefined), requests });
  });
}

/** Server/DC search and comment lists: `startAt` advances by the items received until `total`. */
async function offsetPages(
  transport: Transport,
  ctx: FailureContext,
  paging: PagingPolicy,
  notFound: string,
  field: 'issues' | 'comments',
  firstStart: number,
  requestedMax: number | undefined,
  fetchPage: (startAt: number) => Promise<unknown>,
  toItem: (v: JsonValue) => ModelItem,
): Promise<CallResult> {
  const pages: JiraOffsetPage[] = [];
  const raw: JsonValue[] = [];
  const requests: string[] = [];
  let startAt = firstStart;
  const trail = new PageTrail();
  for (;;) {
    const body = await guardCall(ctx, transport, notFound, () => fetchPage(startAt));
    const exchange = transport.journal.at(-1)!;
    trail.add(exchange.url);
    requests.push(exchange.recordedUrl ?? exchange.url);
    const { items, page } = readShape(ctx, transport, () => {
      const o = asObject(body, `the ${field} page`);
      const items = asArray(o[field], `the ${field} of the page`);
      return { items, page: offsetPage(o, items.length, startAt) };
    });
    pages.push(page);
    // One push per item: spreading a page of 100k+ items into arguments overflows the stack.
    for (const item of items) raw.push(item);
    const next = page.startAt + items.length;
    if (items.length === 0 || page.total === undefined || next >= page.total) break;
    if (pages.length >= paging.maxPages || raw.length >= paging.maxItems) break;
    const nextUrl = new URL(exchange.url);
    nextUrl.searchParams.set('startAt', String(next));
    if (trail.has(nextUrl.toString()) || !paging.canFetch(nextUrl.toString())) break;
    startAt = next;
  }
  const items = readShape(ctx, transport, () => raw.map(toItem));
  return { items, raw, pagination: jiraOffsetPagination(pages, requestedMax), requests };
}

function offsetPage(o: JsonObject, count: number, requestedStart = 0): JiraOffsetPage {
  const maxResults = optNumber(o, 'maxResults');
  const total = optNumber(o, 'total');
  return {
    startAt: optNumber(o, 'startAt') ?? requestedStart,
    count,
    ...(maxResults !== undefined ? { maxResults } : {}),
    ...(total !== undefined ? { total } : {}),
  };
}

/** Cloud's enhanced search (`/search/jql`): follow `nextPageToken` until `isLast`. */
async function tokenPages(
  client: JiraClient,
  transport: Transport,
  ctx: FailureContext,
  paging: PagingPolicy,
  notFound: string,
  p: Record<string, string>,
  extra: Record<string, string>,
  toItem: (v: JsonValue) => ModelItem,
): Promise<CallResult> {
  const raw: JsonValue[] = [];
  const requests: string[] = [];
  let token = p['nextPageToken'];
  let pageCount = 0;
  let next: string | undefined;
  const trail = new PageTrail();
  for (;;) {
    const current = token;
    const body = await guardCall(ctx, transport, notFound, () =>
      client.issueSearch.searchForIssuesUsingJqlEnhancedSearch({
        jql: p['jql'],
        ...(current ? { nextPageToken: current } : {}),
        ...(num(p['maxResults']) ? { maxResults: num(p['maxResults']) } : {}),
        ...extra,
      }),
    );
    const exchange = transport.journal.at(-1)!;
    trail.add(exchange.url);
    requests.push(exchange.recordedUrl ?? exchange.url);
    const o = readShape(ctx, transport, () => asObject(body, 'the search page'));
    for (const item of readShape(ctx, transport, () => asArray(o['issues'], 'the issues of the search page'))) raw.push(item);
    pageCount++;
    next = o['isLast'] === true ? undefined : optString(o, 'nextPageToken');
    if (!next || pageCount >= paging.maxPages || raw.length >= paging.maxItems) break;
    const nextUrl = new URL(exchange.url);
    nextUrl.searchParams.set('nextPageToken', next);
    if (trail.has(nextUrl.toString()) || !paging.canFetch(nextUrl.toString())) break;
    token = next;
  }
  const items = readShape(ctx, transport, () => raw.map(toItem));
  return { items, raw, pagination: jiraTokenPagination(pageCount, num(p['maxResults']) ?? 50, next), requests };
}

function num(value: string | undefined): number | undefined {
  if (value === undefined || !/^\d+$/.test(value)) return undefined;
  return Number(value);
}
