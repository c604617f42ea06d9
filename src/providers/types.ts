import type { JsonValue } from '../json/types.js';
import type { Comment, Discussion, FileDiff, Issue, MergeRequest, Pagination, ProviderResult, SortInfo } from '../model/index.js';
import type { RetryEvent } from '../http/transport.js';

export type ProviderName = 'github' | 'gitlab' | 'jira';
export const PROVIDER_NAMES: readonly ProviderName[] = ['github', 'gitlab', 'jira'];

export type DatasetKind = 'issues' | 'merge_requests' | 'diffs' | 'comments' | 'discussions';
/** Also the order datasets of one project are listed in. */
export const DATASET_KINDS: readonly DatasetKind[] = ['issues', 'merge_requests', 'diffs', 'comments', 'discussions'];

export type ModelItem = Issue | MergeRequest | FileDiff | Comment | Discussion;

export interface Dataset {
  provider: ProviderName;
  /** As in corpus folder names: `owner__repo` (slashes as `__`), or the Jira project key. */
  project: string;
  kind: DatasetKind;
  /** What was asked, stable across runs: method, path and query of the first request (no host). */
  label: string;
  result: ProviderResult<ModelItem>;
  /**
   * The provider's own items exactly as returned, pages concatenated. 1:1 and in the same order as
   * `result.items`, except for discussions (GitHub: the review comments the threads were built from).
   */
  raw: JsonValue[];
  /** URLs fetched, in order: the recorded URLs in corpus mode, the live ones otherwise (no credentials). */
  requests: string[];
}

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

/** What one call (all its pages) yielded, before it becomes a Dataset. */
export interface CallResult {
  items: ModelItem[];
  raw: JsonValue[];
  pagination?: Pagination;
  sort_info?: SortInfo;
  requests: string[];
}

/** A provider connected through its real client library and devboy's transport. */
export interface ProviderSession {
  provider: ProviderName;
  run(call: EndpointCall, paging: PagingPolicy): Promise<CallResult>;
}
