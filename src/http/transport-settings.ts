import { UsageError } from '../errors.js';
import type { AttemptLimits } from './attempt.js';
import { MAX_TIMER_MS, maxBodyBytesFrom } from './limits.js';
import { redactUrl } from './redact.js';
import type { HttpOptions } from './transport.js';

/** A transport's options with their defaults filled in, checked. */
export interface TransportSettings extends AttemptLimits {
  maxRetries: number;
  maxWaitMs: number;
  backoffBase: number;
  sleep: (ms: number) => Promise<void>;
  now: () => number;
}

/** The settings of a transport for the API at `apiUrl`, or a UsageError naming the option out of range. */
export function transportSettings(apiUrl: string, options: HttpOptions): TransportSettings {
  const origin = configuredOrigin(apiUrl);
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxRetries = options.maxRetries ?? 3;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const backoffBase = options.backoffBaseMs ?? 1000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const maxBodyBytes = options.maxBodyBytes ?? maxBodyBytesFrom(process.env);
  if (!(maxBodyBytes > 0)) throw new UsageError(`maxBodyBytes must be a positive number of bytes, got ${maxBodyBytes}`);
  // Past the timer's range Node fires after 1 ms: a long timeout would fail every request at once.
  if (!(timeoutMs >= 1 && timeoutMs <= MAX_TIMER_MS))
    throw new UsageError(`timeoutMs must be from 1 to ${MAX_TIMER_MS} ms (the longest Node timer), got ${timeoutMs}`);
  if (!(maxWaitMs >= 0 && maxWaitMs <= MAX_TIMER_MS))
    throw new UsageError(`maxWaitMs must be from 0 to ${MAX_TIMER_MS} ms (the longest Node timer), got ${maxWaitMs}`);
  return { origin, timeoutMs, maxRetries, maxWaitMs, backoffBase, sleep, now, maxBodyBytes };
}

function configuredOrigin(apiUrl: string): string {
  try {
    const parsed = new URL(apiUrl);
    if (parsed.protocol === 'http:' || parsed.protocol === 'https:') return parsed.origin;
  } catch {
    // reported below
  }
  throw new UsageError(`not an http(s) URL: ${redactUrl(apiUrl)}`);
}
