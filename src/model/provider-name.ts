/**
 * The providers devboy reads. Adding one starts here: the provider registry
 * (src/providers/registry.ts) is a `Record<ProviderName, ProviderModule>`, so the compiler then
 * asks for its module.
 */
export type ProviderName = 'github' | 'gitlab' | 'jira';
