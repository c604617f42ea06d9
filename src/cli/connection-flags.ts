import { Flags } from './oclif.js';
import { MAX_TIMER_SECONDS } from '../http/limits.js';
import type { HttpOptions } from '../http/transport.js';

/**
 * The flags of every command that reads a provider live (benchmark, record): one set, so an error
 * that says "raise --max-wait" or "or --token" names a flag the command has.
 */
export const connectionFlags = {
  host: Flags.string({ description: 'API root (GitHub) or site URL (GitLab, Jira); overrides GITHUB_API_URL, GITLAB_HOST, JIRA_HOST' }),
  token: Flags.string({ description: 'access token (prefer the environment variable: flags show in the process list)' }),
  email: Flags.string({ description: 'Jira Cloud account email (with an API token)' }),
  'jira-api': Flags.integer({ description: 'Jira REST version: 2 (Server/Data Center) or 3 (Cloud)', options: ['2', '3'] }),
  // A Node timer holds at most MAX_TIMER_SECONDS: past it every request would time out at once.
  timeout: Flags.integer({ description: 'seconds to wait for each answer', min: 1, max: MAX_TIMER_SECONDS, default: 30 }),
  'max-retries': Flags.integer({ description: 'retries after rate limits, 5xx answers and timeouts', min: 0, default: 3 }),
  'max-wait': Flags.integer({
    description: 'longest wait in seconds for a rate limit to reset; a longer one fails at once',
    min: 0,
    max: MAX_TIMER_SECONDS,
    default: 60,
  }),
};

export interface ConnectionFlagValues {
  host?: string | undefined;
  token?: string | undefined;
  email?: string | undefined;
  'jira-api'?: number | undefined;
  timeout: number;
  'max-retries': number;
  'max-wait': number;
}

/** The library's options for a live read, from the parsed connection flags. */
export function connectionOptions(flags: ConnectionFlagValues): {
  host?: string;
  token?: string;
  email?: string;
  apiVersion?: number;
  http: HttpOptions;
} {
  return {
    ...(flags.host ? { host: flags.host } : {}),
    ...(flags.token ? { token: flags.token } : {}),
    ...(flags.email ? { email: flags.email } : {}),
    ...(flags['jira-api'] ? { apiVersion: Number(flags['jira-api']) } : {}),
    http: { timeoutMs: flags.timeout * 1000, maxRetries: flags['max-retries'], maxWaitMs: flags['max-wait'] * 1000 },
  };
}
