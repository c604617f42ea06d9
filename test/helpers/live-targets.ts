import type { ProviderName } from '../../src/model/index.js';
import type { EndpointCall } from '../../src/providers/types.js';
import { PROVIDER_NAMES, PROVIDERS } from '../../src/providers/registry.js';

/**
 * What the network tests (credential origins, timeouts, hostile servers) aim at a loopback server,
 * per provider: a fake credential, the project to read and its first list. A `Record` over
 * ProviderName: a new provider does not compile until it has an entry here, and then every network
 * test runs for it (they iterate NETWORK_PROVIDERS, never a hand-written list).
 */
export interface LiveTarget {
  /** A credential shaped like the provider's, unique enough to find in any output. */
  token: string;
  /** The flags that name what to read, as `loadLiveDatasets` takes them. */
  where: { owner: string; repo: string } | { project: string; email: string };
  /** Its issue list, as the provider's client runs it. */
  issues: EndpointCall;
}

export const LIVE_TARGETS: Record<ProviderName, LiveTarget> = {
  github: {
    token: 'ghp_NETWORKtoken0123456789',
    where: { owner: 'acme', repo: 'widgets' },
    issues: { kind: 'issues', endpoint: 'issues', params: { owner: 'acme', repo: 'widgets' } },
  },
  gitlab: {
    token: 'glpat-NETWORKtoken0123456789',
    where: { owner: 'acme', repo: 'widgets' },
    issues: { kind: 'issues', endpoint: 'issues', params: { project_id: 'acme/widgets' } },
  },
  jira: {
    token: 'ATATTnetworkTOKEN0123456789',
    where: { project: 'ACME', email: 'me@example.com' },
    issues: { kind: 'issues', endpoint: 'search', params: { jql: 'project = ACME' } },
  },
};

export const NETWORK_PROVIDERS: readonly ProviderName[] = PROVIDER_NAMES;

/** How devboy names the provider in messages. */
export const display = (provider: ProviderName): string => PROVIDERS[provider].display;
