import type { JsonValue } from '../json/types.js';
import type { DatasetKind, ModelItem, Pagination, ProviderName, SortInfo } from '../model/index.js';
import type { HttpOptions, RetryEvent, Transport, TransportHooks } from '../http/transport.js';

export type ProgressEvent =
  | { type: 'project'; provider: ProviderName; project: string }
  | { type: 'request'; method: string; url: string; status: number }
  | ({ type: 'retry' } & RetryEvent)
  | { type: 'dataset'; provider: ProviderName; project: string; kind: DatasetKind; label: string; items: number };

/** One logical request of an endpoint devboy understands; later pages are followed from it. */
export interface EndpointCall {
  kind: DatasetKind;
  /** Provider-specific endpoint name, e.g. `pull_files`. */
  endpoint: string;
  /** Path parameters and query parameters, as strings. */
  params: Record<string, string>;
  /** A single-object GET (one issue, one pull request): such calls of one kind join one dataset. */
  single?: boolean;
}

export interface PagingPolicy {
  maxPages: number;
  /** Stop following pages once this many items were collected. */
  maxItems: number;
  /** Whether the next page's URL may be fetched (corpus mode: only if it was recorded). */
  canFetch(url: string): boolean;
}

/** What one call (all its pages) yielded, before it becomes a Dataset. Items are of the call's kind. */
export interface CallResult {
  /** The kind the items are, when not the call's: GitHub's issues or search API answering with pull requests only. */
  kind?: DatasetKind;
  /** Why items the answer held were left out, when none is left (a pull request read through GitHub's issues API). */
  leftOut?: string;
  /**
   * Items of another kind the answer held beside the call's own (GitHub's issues API lists pull
   * requests among the issues): a dataset of their own, labelled with the request and `(its <what>)`.
   */
  alongside?: AlongsideItems;
  items: ModelItem[];
  raw: JsonValue[];
  pagination?: Pagination;
  sort_info?: SortInfo;
  requests: string[];
}

/** Items of another kind than a list's own, from the same API pages (raw and model items aligned). */
export interface AlongsideItems {
  kind: DatasetKind;
  /** What they are, plural: `pull requests`. */
  what: string;
  items: ModelItem[];
  raw: JsonValue[];
}

/** A provider's real client library, connected to devboy's transport. */
export interface ProviderClient {
  provider: ProviderName;
  transport: Transport;
  run(call: EndpointCall, paging: PagingPolicy): Promise<CallResult>;
}

export interface ClientOptions {
  /** Where the API is: the provider's API root (GitHub), site (GitLab, Jira), or a replay server. */
  apiUrl: string;
  token?: string;
  /** Jira Cloud: the account's email, for basic auth with an API token. */
  email?: string;
  /** The site's public URL for item links, when `apiUrl` is a replay server (Jira builds issue URLs from it). */
  browseBase?: string;
  http?: HttpOptions;
  hooks?: TransportHooks;
}
