import { UsageError } from '../errors.js';
import type { ProviderName } from './types.js';

export interface CredentialOptions {
  /** API root (GitHub) or site URL (GitLab, Jira). */
  host?: string;
  token?: string;
  email?: string;
  /** Jira REST version: 2 (Server/Data Center) or 3 (Cloud). */
  jiraApi?: 2 | 3;
  /** Where variables are read from; defaults to process.env. */
  env?: Record<string, string | undefined>;
}

export interface ResolvedCredentials {
  apiUrl: string;
  token?: string;
  email?: string;
  jiraApi: 2 | 3;
}

/**
 * Flags win over the environment. GitHub: GITHUB_TOKEN (or GH_TOKEN), GITHUB_API_URL for
 * Enterprise. GitLab: GITLAB_TOKEN, GITLAB_HOST. Jira: JIRA_HOST, with JIRA_EMAIL + JIRA_API_TOKEN
 * (Cloud) or JIRA_PAT (Server/Data Center), JIRA_API_VERSION (default: 3 on *.atlassian.net, else 2).
 * Tokens are optional where the provider serves public data anonymously.
 */
export function resolveCredentials(provider: ProviderName, options: CredentialOptions): ResolvedCredentials {
  const env = options.env ?? process.env;
  const pick = (...values: (string | undefined)[]) => values.find((v) => v !== undefined && v !== '');
  if (provider === 'github') {
    const token = pick(options.token, env['GITHUB_TOKEN'], env['GH_TOKEN']);
    return {
      apiUrl: validUrl(pick(options.host, env['GITHUB_API_URL']) ?? 'https://api.github.com', 'GITHUB_API_URL'),
      ...(token ? { token } : {}),
      jiraApi: 2,
    };
  }
  if (provider === 'gitlab') {
    const token = pick(options.token, env['GITLAB_TOKEN']);
    return {
      apiUrl: validUrl(pick(options.host, env['GITLAB_HOST']) ?? 'https://gitlab.com', 'GITLAB_HOST'),
      ...(token ? { token } : {}),
      jiraApi: 2,
    };
  }
  const host = pick(options.host, env['JIRA_HOST']);
  if (!host) throw new UsageError('Jira needs a site: set JIRA_HOST or --host (e.g. https://example.atlassian.net)');
  const apiUrl = validUrl(host, 'JIRA_HOST');
  const email = pick(options.email, env['JIRA_EMAIL']);
  const token = email ? pick(options.token, env['JIRA_API_TOKEN']) : pick(options.token, env['JIRA_PAT'], env['JIRA_API_TOKEN']);
  if (email && !token) throw new UsageError('JIRA_EMAIL is set but no API token: set JIRA_API_TOKEN (or --token)');
  const version =
    options.jiraApi ??
    (env['JIRA_API_VERSION'] === '3'
      ? 3
      : env['JIRA_API_VERSION'] === '2'
        ? 2
        : /\.atlassian\.net$/i.test(new URL(apiUrl).hostname)
          ? 3
          : 2);
  return { apiUrl, ...(token ? { token } : {}), ...(email ? { email } : {}), jiraApi: version };
}

function validUrl(value: string, variable: string): string {
  const withScheme = /^https?:\/\//i.test(value) ? value : `https://${value}`;
  try {
    return new URL(withScheme).toString().replace(/\/+$/, '');
  } catch {
    throw new UsageError(`${variable}: not a URL: ${value}`);
  }
}
