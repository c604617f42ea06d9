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
      apiUrl: validUrl(pick(options.host, env['GITHUB_API_URL']) ?? 'https://api.github.com', hostSource(options, 'GITHUB_API_URL')),
      ...(token ? { token } : {}),
      jiraApi: 2,
    };
  }
  if (provider === 'gitlab') {
    const token = pick(options.token, env['GITLAB_TOKEN']);
    return {
      apiUrl: validUrl(pick(options.host, env['GITLAB_HOST']) ?? 'https://gitlab.com', hostSource(options, 'GITLAB_HOST')),
      ...(token ? { token } : {}),
      jiraApi: 2,
    };
  }
  const host = pick(options.host, env['JIRA_HOST']);
  if (!host) throw new UsageError('Jira needs a site: set JIRA_HOST or --host (e.g. https://example.atlassian.net)');
  const apiUrl = validUrl(host, hostSource(options, 'JIRA_HOST'));
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

function hostSource(options: CredentialOptions, variable: string): string {
  return options.host !== undefined && options.host !== '' ? '--host' : variable;
}

/**
 * An API root as a URL, or a usage error saying what is wrong with it. A host that only DNS would
 * reject (`bad_host!`, `example..com`, `http//example.com`) is caught here: the transport would
 * otherwise retry it as a network failure.
 */
function validUrl(value: string, source: string): string {
  const text = value.trim();
  const shape = `${source}: not a URL: ${value} (expected https://HOST[:PORT][/PATH])`;
  // A scheme is letters and a colon not followed by a port number (`localhost:8080` has none).
  const scheme = /^([a-z][a-z0-9+.-]*):(?!\d)/i.exec(text)?.[1];
  if (scheme !== undefined && !/^https?$/i.test(scheme))
    throw new UsageError(`${source}: ${value}: only http:// and https:// are supported`);
  if (scheme !== undefined && !/^https?:\/\/[^/]/i.test(text)) throw new UsageError(shape);
  if (/^https?\/\//i.test(text)) throw new UsageError(shape);
  let url: URL;
  try {
    url = new URL(scheme !== undefined ? text : `https://${text}`);
  } catch {
    throw new UsageError(shape);
  }
  if (url.username || url.password) throw new UsageError(`${source}: must not hold credentials: set the token variable or --token instead`);
  if (url.search || url.hash) throw new UsageError(`${source}: ${value}: no query or fragment allowed`);
  if (!isHostName(url.hostname)) throw new UsageError(`${source}: ${value}: ${JSON.stringify(url.hostname)} is not a host name`);
  return url.toString().replace(/\/+$/, '');
}

/** An IP address (WHATWG has normalized IPv4 already), or DNS labels of letters, digits, `-` and `_`. */
function isHostName(hostname: string): boolean {
  if (hostname.startsWith('[') && hostname.endsWith(']')) return true;
  const name = hostname.endsWith('.') ? hostname.slice(0, -1) : hostname;
  if (name.length === 0 || name.length > 253) return false;
  return name.split('.').every((label) => /^[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?$/i.test(label));
}
