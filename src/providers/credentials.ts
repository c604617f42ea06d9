import { UsageError } from '../errors.js';

export interface CredentialOptions {
  /** API root (GitHub) or site URL (GitLab, Jira). */
  host?: string;
  token?: string;
  email?: string;
  /** The provider's REST API version, where it has several (Jira: 2 for Server/Data Center, 3 for Cloud). */
  apiVersion?: number;
  /** Where variables are read from; defaults to process.env. */
  env?: Record<string, string | undefined>;
}

export interface ResolvedCredentials {
  apiUrl: string;
  token?: string;
  email?: string;
  apiVersion?: number;
}

/** The first value that is set and not empty: flags win over the environment. */
export function pick(...values: (string | undefined)[]): string | undefined {
  return values.find((v) => v !== undefined && v !== '');
}

/** Every secret the credentials put in play, including the forms a server may echo (Jira's `email:token`). */
export function secretsOf(credentials: Pick<ResolvedCredentials, 'token' | 'email'>): (string | undefined)[] {
  const { token, email } = credentials;
  return [token, email && token ? `${email}:${token}` : undefined];
}

export function validUrl(value: string, variable: string): string {
  const withScheme = /^https?:\/\//i.test(value) ? value : `https://${value}`;
  try {
    return new URL(withScheme).toString().replace(/\/+$/, '');
  } catch {
    throw new UsageError(`${variable}: not a URL: ${value}`);
  }
}
