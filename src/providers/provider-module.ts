import type { JsonObject, JsonValue } from '../json/types.js';
import type { DatasetKind, Pagination, ProviderName, SortInfo } from '../model/index.js';
import type { CredentialOptions, ResolvedCredentials } from './credentials.js';
import type { LiveCallResult, LivePlanOptions } from './live-plan.js';
import type { ItemShape } from './item-shape.js';
import type { ClientOptions, EndpointCall, ProviderClient } from './types.js';

/** What the user named to read live: a repository (GitHub, GitLab) or a project key (Jira). */
export interface LiveTarget {
  owner?: string;
  repo?: string;
  project?: string;
}

/** One recorded response, for reading its pagination and sort the way the provider's client would. */
export interface RecordedResponse {
  url: string;
  headers: Record<string, string>;
  body: JsonValue;
  /** Items devboy read from the body. */
  count: number;
}

/**
 * Everything devboy knows about one provider. The registry (registry.ts) holds one per provider
 * in a `Record<ProviderName, ProviderModule>`, so a new provider is one folder and one registry
 * line, and the compiler names each missing piece. Nothing outside a provider's folder branches on
 * its name.
 */
export interface ProviderModule {
  name: ProviderName;
  /** How messages name it: `GitHub`. */
  display: string;
  /** The variables or flags that supply credentials, for failure messages. */
  authHint: string;
  /** API URL and credentials from flags, then the environment. */
  credentials(options: CredentialOptions, env: Record<string, string | undefined>): ResolvedCredentials;
  /** The project name datasets and corpus folders use (`owner__repo`, or the Jira key). */
  projectName(target: LiveTarget): string;
  /** What provenance calls the source (`owner/repo`, or the Jira key). */
  sourceRepo(target: LiveTarget): string;
  /** The endpoint calls a recorded URL stands for; none when devboy does not model the endpoint. */
  classify(url: string): EndpointCall[];
  /**
   * The kind a recorded first page will be measured as, when its items say other than its
   * endpoint (GitHub: an issues or search list of pull requests only is merge requests), so that
   * `--list` plans what the replay then measures. Without it, the endpoint's kind.
   */
  recordedKind?(call: EndpointCall, body: JsonValue): DatasetKind | undefined;
  /**
   * The items of another kind a recorded first page holds beside the list's own (GitHub: the pull
   * requests of a mixed issues list), which the replay measures as a dataset of their own: what
   * they are, so that `--list` plans that dataset too. Without it, none.
   */
  recordedAlongside?(call: EndpointCall, body: JsonValue): { kind: DatasetKind; what: string } | undefined;
  /** Pagination and sort of one recorded response of `call`. */
  responseMeta(call: EndpointCall, response: RecordedResponse): { pagination?: Pagination; sort?: SortInfo };
  /** Shapes of this provider's items, most specific first; `browseBase` is the site item links point to. */
  itemShapes(browseBase: string | undefined): readonly ItemShape[];
  /** The real client library on devboy's transport; the library is imported only now. */
  openClient(options: ClientOptions): Promise<ProviderClient>;
  /** What devboy fetches live: lists first, then details of the first few. */
  runLivePlan(client: ProviderClient, options: LivePlanOptions): Promise<LiveCallResult[]>;
}

/** A classifier of one call per URL (at most) as the module's list form. */
export function atMostOne(classify: (url: string) => EndpointCall | undefined): (url: string) => EndpointCall[] {
  return (url) => {
    const call = classify(url);
    return call ? [call] : [];
  };
}

/** Header lookup that ignores case, as HTTP does. */
export function headerOf(headers: Record<string, string>, name: string): string | undefined {
  return Object.entries(headers).find(([k]) => k.toLowerCase() === name)?.[1];
}

export function envelopeOf(body: JsonValue): JsonObject | undefined {
  return body !== null && typeof body === 'object' && !Array.isArray(body) ? body : undefined;
}
