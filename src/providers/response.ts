import { DataError } from '../errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json/types.js';
import {
  listOf,
  type DatasetKind,
  type ItemList,
  type ModelItem,
  type Pagination,
  type ProviderName,
  type SortInfo,
} from '../model/index.js';
import { ShapeError } from './json-read.js';
import { plural } from '../text/words.js';
import { PROVIDER_NAMES, PROVIDERS } from './registry.js';
import { shapeOfList } from './response-shapes.js';
import type { EndpointCall } from './types.js';

/** A response read for formatting: devboy's items, and the provider's own JSON beside them. */
export type ResponseItems = ItemList & {
  /** What it was recognised as, e.g. "GitHub pull request files". */
  shape: string;
  /** The provider's items as given (devboy items: the items themselves). */
  raw: JsonValue[];
  /** raw[i] is items[i] as sent (false for GitHub review threads, built from several comments). */
  rawAligned: boolean;
  pagination?: Pagination;
  sort?: SortInfo;
  /** Where the list was in the body: the members to it (`['issues']` in a Jira search); empty when the body is the list or one item. */
  path: string[];
  /** The body was one item, read as a list of one. */
  single?: boolean;
  /** The value was a recorded exchange; `path` and `single` describe its response body. */
  exchange?: boolean;
  /**
   * Items the list held that are not of its kind and were left out (GitHub's pull requests in an
   * issue list): what they are, their keys, and the kind they are read as when asked for (`--type`).
   */
  dropped?: { what: string; keys: string[]; kind?: DatasetKind };
};

/** A list of another kind the input held beside the one read: how many, what they are, and the `--type` that reads them. */
export interface LeftOutList {
  items: number;
  what: string;
  type: DatasetKind;
}

/** The list of another kind a read left out (a GitHub issues list's pull requests), when there is one. */
export function leftOutList(read: Pick<ResponseItems, 'dropped'>): LeftOutList | undefined {
  const d = read.dropped;
  return d?.kind ? { items: d.keys.length, what: d.what, type: d.kind } : undefined;
}

/**
 * What a reader must be told when the input held a list of another kind too, left out of this one:
 * `51 pull requests left out: they are a list of their own (--type merge_requests formats them)`.
 */
export function leftOutNote(leftOut: LeftOutList, verb: string): string {
  return `${plural(leftOut.items, leftOut.what.replace(/s$/, ''), leftOut.what)} left out: they are a list of their own (--type ${leftOut.type} ${verb} them)`;
}

/**
 * What `devboy format` accepts, recognised from the value itself:
 * - a recorded exchange (`{request: {url}, response: {headers, body}}`, the corpus format): the URL
 *   names the endpoint, the headers and body give pagination and sort;
 * - a provider response body: a JSON array of GitHub, GitLab or Jira items, Jira's `{issues}` or
 *   `{comments}` envelopes, GitHub search's `{items}`, GitLab's `/changes` `{changes}`, or one item;
 * - devboy items: a JSON array of model items, or `{items, pagination?, sort_info?}`.
 * `kind` narrows the guess (and picks a Jira issue's embedded comments).
 */
export function readResponse(value: JsonValue, file: string, kind?: DatasetKind): ResponseItems {
  try {
    if (isJsonObject(value) && isJsonObject(value['request']) && isJsonObject(value['response'])) return fromExchange(value, file, kind);
    return fromBody(value, undefined, file, kind);
  } catch (err) {
    if (err instanceof ShapeError) throw new DataError(err.message, { file });
    throw err;
  }
}

function fromExchange(exchange: JsonObject, file: string, kind?: DatasetKind): ResponseItems {
  const request = exchange['request'] as JsonObject;
  const response = exchange['response'] as JsonObject;
  const url = typeof request['url'] === 'string' ? request['url'] : '';
  const body = (response['body'] ?? null) as JsonValue;
  const headers = isJsonObject(response['headers']) ? (response['headers'] as Record<string, string>) : {};
  const status = response['status'];
  if (typeof status === 'number' && (status < 200 || status > 299))
    throw new DataError(`the recorded response is an error (HTTP ${status}), not a list to format`, { file });
  const call = classify(url, kind);
  // The recorded URL says what the body is; an endpoint devboy has no model for is not guessed at.
  if (!call)
    throw new DataError(
      `not a list devboy models: ${String(request['method'] ?? 'GET')} ${pathOf(url)} (issues, pull/merge requests, diffs, comments, discussions)`,
      { file },
    );
  const browseBase = origin(url);
  const read = fromBody(body, browseBase, file, kind ?? call.kind, call.endpoint === 'issue_comments');
  const { pagination, sort } = PROVIDERS[call.provider].responseMeta(call, { url, headers, body, count: read.raw.length });
  return { ...read, exchange: true, ...(pagination ? { pagination } : {}), ...(sort ? { sort } : {}) };
}

function fromBody(
  body: JsonValue,
  browseBase: string | undefined,
  file: string,
  kind?: DatasetKind,
  embeddedComments = false,
): ResponseItems {
  if (isJsonObject(body)) {
    const jiraComments =
      isJsonObject(body['fields']) && isJsonObject((body['fields'] as JsonObject)['comment'])
        ? ((body['fields'] as JsonObject)['comment'] as JsonObject)['comments']
        : undefined;
    if ((kind === 'comments' || embeddedComments) && Array.isArray(jiraComments))
      return { ...fromList(jiraComments, browseBase, file, 'comments'), path: ['fields', 'comment', 'comments'] };
    for (const field of ['items', 'issues', 'comments', 'changes', 'values']) {
      const list = body[field];
      if (!Array.isArray(list)) continue;
      const read = { ...fromList(list, browseBase, file, kind), path: [field] };
      if (field === 'items' && read.shape.startsWith('devboy')) {
        const pagination = isJsonObject(body['pagination']) ? (body['pagination'] as unknown as Pagination) : undefined;
        const sort = isJsonObject(body['sort_info']) ? (body['sort_info'] as unknown as SortInfo) : undefined;
        return { ...read, ...(pagination ? { pagination } : {}), ...(sort ? { sort } : {}) };
      }
      return read;
    }
    return { ...fromList([body], browseBase, file, kind), single: true };
  }
  if (Array.isArray(body)) return fromList(body, browseBase, file, kind);
  throw new DataError(
    `expected a provider response or devboy items (a JSON array or object), got ${body === null ? 'null' : typeof body}`,
    { file },
  );
}

function fromList(list: JsonValue[], browseBase: string | undefined, file: string, kind?: DatasetKind): ResponseItems {
  if (list.length === 0) return { ...listOf(kind ?? 'issues', []), shape: 'an empty list', raw: [], rawAligned: true, path: [] };
  const { shape, mismatch } = shapeOfList(list, browseBase, kind);
  const wanted = kind ? ` ${kind.replace('_', ' ')}` : '';
  if (!shape)
    throw new DataError(
      `cannot tell what these items are: not GitHub, GitLab, Jira or devboy${wanted} items (devboy help format says what it reads; --type names the kind)`,
      { file },
    );
  if (mismatch !== undefined) throw new DataError(`item ${mismatch + 1} of the list is not like the first (${shape.name})`, { file });
  const drop = shape.drop;
  const kept = drop ? list.filter((v) => !drop.test(v)) : list;
  const other = shape.allDropped;
  // The list's items of the other kind: the whole list when it holds nothing else (pull requests
  // only), or, a mixed list being two lists as the benchmark measures it, when they are asked for
  // (`--type merge_requests` on a GitHub issues list): then the list's own are left out and named.
  if (drop && other && kept.length < list.length && (kept.length === 0 || kind === other.kind)) {
    const mine = list.filter((v) => drop.test(v));
    const own =
      kept.length > 0 ? { dropped: { what: shape.kind.replace('_', ' '), keys: shape.normalize(kept).map(keyOf), kind: shape.kind } } : {};
    return { ...listOf(other.kind, other.normalize(mine)), shape: other.name, raw: mine, rawAligned: true, path: [], ...own };
  }
  if (kind !== undefined && shape.kind !== kind)
    throw new DataError(`cannot tell what these items are: not GitHub, GitLab, Jira or devboy${wanted} items (they are ${shape.name})`, {
      file,
    });
  const dropped =
    drop && kept.length < list.length
      ? {
          what: drop.what,
          keys: drop.keys(
            list.filter((v) => drop.test(v)),
            list,
          ),
          // They are a list of their own, read when asked for.
          ...(other ? { kind: other.kind } : {}),
        }
      : undefined;
  return {
    ...listOf(shape.kind, shape.normalize(kept)),
    shape: shape.name,
    raw: kept,
    rawAligned: shape.aligned,
    path: [],
    ...(dropped ? { dropped } : {}),
  };
}

/** An item's key, to name it when it is left out (`gh#12`). */
function keyOf(item: ModelItem): string {
  return 'key' in item && typeof item.key === 'string' ? item.key : '?';
}

function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return url;
  }
}

/**
 * The first provider (in registry order) that models the URL's endpoint. Where one URL stands for
 * several calls (a Jira issue holds its comments), the call of `kind` wins.
 */
function classify(url: string, kind?: DatasetKind): (EndpointCall & { provider: ProviderName }) | undefined {
  if (url === '') return undefined;
  for (const provider of PROVIDER_NAMES) {
    const calls = PROVIDERS[provider].classify(url);
    const call = calls.find((c) => kind === undefined || c.kind === kind) ?? calls[0];
    if (call) return { ...call, provider };
  }
  return undefined;
}

function origin(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
