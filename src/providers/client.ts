import type { ProviderName } from '../model/index.js';
import { PROVIDERS } from './registry.js';
import type { CredentialOptions, ResolvedCredentials } from './credentials.js';
import type { ClientOptions, ProviderClient } from './types.js';

/** The provider's real client on devboy's transport; each client library is imported only when used. */
export function openClient(provider: ProviderName, options: ClientOptions): Promise<ProviderClient> {
  return PROVIDERS[provider].openClient(options);
}

/** API URL and credentials for `provider`: flags win over the environment (each provider's module says which variables). */
export function resolveCredentials(provider: ProviderName, options: CredentialOptions): ResolvedCredentials {
  return PROVIDERS[provider].credentials(options, options.env ?? process.env);
}
