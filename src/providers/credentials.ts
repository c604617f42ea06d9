import { UsageError } from '../errors.js';
import { MIN_SECRET } from '../http/redact.js';

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

/**
 * The first token that is set, from `[where, value]` pairs in order of precedence (flag, then
 * variables); one shorter than MIN_SECRET is refused, naming where it came from and never the value:
 * devboy could not keep it out of its messages.
 */
export function pickToken(...sources: [where: string, value: string | undefined][]): string | undefined {
  const found = sources.find(([, v]) => v !== undefined && v !== '');
  if (!found) return undefined;
  const [where, token] = found as [string, string];
  if (token.length < MIN_SECRET)
    throw new UsageError(
      `${where} is ${token.length} character${token.length === 1 ? '' : 's'} long: too short to be an API token (devboy takes ${MIN_SECRET} or more, so that it can keep the token out of every message)`,
    );
  return token;
}

/** Every secret the credentials put in play, including the forms a server may echo (Jira's `email:token`). */
export function secretsOf(credentials: Pick<ResolvedCredentials, 'token' | 'email'>): (string | undefined)[] {
  const { token, email } = credentials;
  return [token, email && token ? `${email}:${token}` : undefined];
}

/**
 * The API URL from a flag, else a variable, else the provider's default; errors name where the bad
 * value came from (`--host` or the variable).
 */
export function apiUrlFrom(flag: string | undefined, fromEnv: string | undefined, fallback: string, variable: string): string {
  const given = pick(flag);
  return validUrl(given ?? pick(fromEnv) ?? fallback, given !== undefined ? '--host' : variable);
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
