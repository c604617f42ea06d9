/**
 * When to try a request again and how long to wait first. Rate limits say how long themselves
 * (Retry-After, X-RateLimit-Reset / RateLimit-Reset); server errors and timeouts back off exponentially.
 */

export type RetryReason = 'rate-limit' | 'server-error' | 'timeout' | 'network';

export interface RetryDecision {
  reason: RetryReason;
  /** Milliseconds the server asked for, when it said. */
  requestedWaitMs?: number;
}

const SERVER_ERRORS = new Set([500, 502, 503, 504]);

/** Whether a response is worth retrying, and why. */
export function classifyResponse(status: number, headers: Headers, now: number): RetryDecision | undefined {
  const requestedWaitMs = waitFromHeaders(headers, now);
  if (status === 429) return withWait('rate-limit', requestedWaitMs);
  // GitHub answers 403 for both primary and secondary rate limits; only the headers tell it from a permission error.
  if (status === 403 && (headers.has('retry-after') || headers.get('x-ratelimit-remaining') === '0')) {
    return withWait('rate-limit', requestedWaitMs);
  }
  if (SERVER_ERRORS.has(status)) return withWait('server-error', headers.has('retry-after') ? requestedWaitMs : undefined);
  return undefined;
}

function withWait(reason: RetryReason, requestedWaitMs: number | undefined): RetryDecision {
  return requestedWaitMs === undefined ? { reason } : { reason, requestedWaitMs };
}

/** Milliseconds until the server lets us in again, from Retry-After (seconds or HTTP date) or a reset epoch. */
export function waitFromHeaders(headers: Headers, now: number): number | undefined {
  const retryAfter = headers.get('retry-after');
  if (retryAfter !== null && retryAfter.trim() !== '') {
    const seconds = Number(retryAfter);
    if (Number.isFinite(seconds)) return Math.max(0, Math.round(seconds * 1000));
    const date = Date.parse(retryAfter);
    if (Number.isFinite(date)) return Math.max(0, date - now);
  }
  const reset = headers.get('x-ratelimit-reset') ?? headers.get('ratelimit-reset');
  if (reset !== null && /^\d+$/.test(reset.trim())) {
    const value = Number(reset);
    // GitHub and GitLab send epoch seconds; the IETF draft header sends seconds from now.
    const ms = value > 1e9 ? value * 1000 - now : value * 1000;
    return Math.max(0, ms);
  }
  return undefined;
}

/** Exponential backoff for the nth retry (1-based), capped. */
export function backoffMs(retry: number, baseMs: number, capMs: number): number {
  return Math.min(capMs, baseMs * 2 ** (retry - 1));
}
