import type { HttpOptions, Transport, TransportHooks } from '../http/transport.js';
import type { ProviderName, ProviderSession } from './types.js';

export interface SessionOptions {
  /** Where the API is: the provider's API root (GitHub), site (GitLab, Jira), or a replay server. */
  apiUrl: string;
  token?: string;
  /** Jira Cloud: the account's email, for basic auth with an API token. */
  email?: string;
  /** Jira: the site's public URL for issue links, when `apiUrl` is a replay server. */
  browseBase?: string;
  http?: HttpOptions;
  hooks?: TransportHooks;
}

export type OpenSession = ProviderSession & { transport: Transport };

/** Each provider's module (and its client library) is imported only when that provider is used. */
export async function openSession(provider: ProviderName, options: SessionOptions): Promise<OpenSession> {
  const common = {
    ...(options.token ? { token: options.token } : {}),
    ...(options.http ? { http: options.http } : {}),
    ...(options.hooks ? { hooks: options.hooks } : {}),
  };
  switch (provider) {
    case 'github':
      return (await import('./github/session.js')).openGithubSession({ baseUrl: options.apiUrl, ...common });
    case 'gitlab':
      return (await import('./gitlab/session.js')).openGitlabSession({ host: options.apiUrl, ...common });
    case 'jira':
      return (await import('./jira/session.js')).openJiraSession({
        host: options.apiUrl,
        ...(options.browseBase ? { browseBase: options.browseBase } : {}),
        ...(options.email ? { email: options.email } : {}),
        ...common,
      });
  }
}
