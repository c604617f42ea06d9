import type { ProviderName } from '../model/index.js';
import { github } from './github/provider.js';
import { gitlab } from './gitlab/provider.js';
import { jira } from './jira/provider.js';
import type { ProviderModule } from './provider-module.js';

/**
 * Every provider devboy reads, one module each. Exhaustive over ProviderName: a name without a
 * module, or a module without a name, does not compile. The order is the order datasets and
 * item shapes are listed in. Client libraries load only when a provider's client is opened.
 */
export const PROVIDERS: Record<ProviderName, ProviderModule> = { github, gitlab, jira };

export const PROVIDER_NAMES = Object.keys(PROVIDERS) as ProviderName[];

export function isProviderName(name: string): name is ProviderName {
  return Object.hasOwn(PROVIDERS, name);
}
