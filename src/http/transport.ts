import { redactUrl } from './redact.js';
import { backoffMs, classifyResponse, type RetryReason } from './retry-policy.js';

/**
 * The one place devboy talks HTTP. Every client library (Octokit, Gitbeaker, jira.js) is handed
 * this fetch, so timeouts, bounded retries, rate-limit waits and recording behave the same for all
 * three providers, and tests can make every wait instant by injecting `sleep`.
 */

export interface HttpOptions {
  /** Per attempt, covering headers and body. Default 30 s. */
  timeoutMs?: number;
  /** Retries after the first attempt, for rate limits, 5xx, timeouts and network errors. Default 3. */
  maxRetries?: number;
  /** The longest single wait devboy accepts; a rate limit that resets later fails at once. Default 60 s. */
  maxWaitMs?: number;
  /** First backoff when the server does not say how long to wait; doubles per retry. Default 1 s. */
  backoffBaseMs?: number;
  sleep?: (ms: number) => Promise<void>;
  now?: () => number;
}

/** Header a replay server adds so datasets can name the recorded URL instead of the loopback one. */
export const RECORDED_URL_HEADER = 'x-devboy-recorded-url';

export interface ExchangeMeta {
  method: string;
  /** As requested, credentials removed. */
  url: string;
  /** The recording's URL when a replay server answered. */
  recordedUrl?: string;
  status: number;
  headers: Headers;
}

export interface CompletedExchange extends ExchangeMeta {
  body: string;
}

export interface RetryEvent {
  method: string;
  url: string;
  reason: RetryReason;
  status?: number;
  retry: number;
  waitMs: number;
}

export interface Failure {
  kind: 'status' | 'timeout' | 'network';
  method: string;
  url: string;
  status?: number;
  headers?: Headers;
  /** Start of the response body, for the error message. */
  bodyExcerpt?: string;
  attempts: number;
  reason?: RetryReason;
  /** Set when devboy stopped because the server asked for a wait longer than `maxWaitMs`. */
  refusedWaitMs?: number;
  maxWaitMs?: number;
  timeoutMs?: number;
  cause?: unknown;
}

export class TransportError extends Error {
  constructor(readonly failure: Failure) {
    super(failure.kind === 'timeout' ? `no answer within ${failure.timeoutMs} ms` : `cannot connect: ${causeText(failure.cause)}`);
    this.name = 'TransportError';
  }
}

export interface TransportHooks {
  onRetry?: (event: RetryEvent) => void;
  /** Every final exchange with its body, e.g. for recording. */
  onExchange?: (exchange: CompletedExchange) => void;
}

export interface Transport {
  fetch: typeof fetch;
  /** Final exchanges in order (no bodies). */
  readonly journal: readonly ExchangeMeta[];
  /** Why the latest request failed, if it did. */
  lastFailure(): Failure | undefined;
  /** Forget the last failure, before a call whose failure should be reported on its own. */
  resetFailure(): void;
  readonly timeoutMs: number;
}

const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

export function createTransport(options: HttpOptions = {}, hooks: TransportHooks = {}, baseFetch: typeof fetch = fetch): Transport {
  const timeoutMs = options.timeoutMs ?? 30_000;
  const maxRetries = options.maxRetries ?? 3;
  const maxWaitMs = options.maxWaitMs ?? 60_000;
  const backoffBase = options.backoffBaseMs ?? 1000;
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const now = options.now ?? Date.now;
  const journal: ExchangeMeta[] = [];
  let lastFailure: Failure | undefined;

  const transportFetch = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    lastFailure = undefined;
    const request = new Request(input, init);
    const method = request.method;
    const url = redactUrl(request.url);
    for (let attempt = 1; ; attempt++) {
      const retriesLeft = attempt <= maxRetries;
      const timeout = new AbortController();
      const timer = setTimeout(() => timeout.abort(), timeoutMs);
      let response: Response;
      let body: string;
      try {
        response = await baseFetch(new Request(request.clone(), { signal: AbortSignal.any([request.signal, timeout.signal]) }));
        body = NULL_BODY_STATUSES.has(response.status) ? '' : await response.text();
      } catch (err) {
        if (request.signal.aborted) throw err;
        const kind = timeout.signal.aborted ? 'timeout' : 'network';
        if (retriesLeft) {
          const waitMs = backoffMs(attempt, backoffBase, maxWaitMs);
          hooks.onRetry?.({ method, url, reason: kind, retry: attempt, waitMs });
          await sleep(waitMs);
          continue;
        }
        lastFailure = { kind, method, url, attempts: attempt, reason: kind, timeoutMs, cause: err };
        throw new TransportError(lastFailure);
      } finally {
        clearTimeout(timer);
      }

      const decision = response.ok ? undefined : classifyResponse(response.status, response.headers, now());
      if (decision && retriesLeft) {
        const waitMs = decision.requestedWaitMs ?? backoffMs(attempt, backoffBase, maxWaitMs);
        if (waitMs <= maxWaitMs) {
          hooks.onRetry?.({ method, url, reason: decision.reason, status: response.status, retry: attempt, waitMs });
          await sleep(waitMs);
          continue;
        }
        lastFailure = { ...failureOf(method, url, response, body, attempt, decision.reason, waitMs), maxWaitMs };
      } else if (!response.ok) {
        lastFailure = failureOf(method, url, response, body, attempt, decision?.reason);
      }

      const recordedUrl = response.headers.get(RECORDED_URL_HEADER) ?? undefined;
      const meta: ExchangeMeta = {
        method,
        url,
        status: response.status,
        headers: response.headers,
        ...(recordedUrl ? { recordedUrl } : {}),
      };
      journal.push(meta);
      hooks.onExchange?.({ ...meta, body });
      return rebuild(response, body, request.url);
    }
  };

  return {
    fetch: transportFetch as typeof fetch,
    journal,
    lastFailure: () => lastFailure,
    resetFailure: () => {
      lastFailure = undefined;
    },
    timeoutMs,
  };
}

function failureOf(
  method: string,
  url: string,
  response: Response,
  body: string,
  attempts: number,
  reason?: RetryReason,
  refusedWaitMs?: number,
): Failure {
  return {
    kind: 'status',
    method,
    url,
    status: response.status,
    headers: response.headers,
    bodyExcerpt: body.slice(0, 2000),
    attempts,
    ...(reason ? { reason } : {}),
    ...(refusedWaitMs !== undefined ? { refusedWaitMs } : {}),
  };
}

/** The body was read to enforce the timeout and to record it; the client gets an equivalent, unread response. */
function rebuild(response: Response, body: string, url: string): Response {
  const headers = new Headers(response.headers);
  // fetch already decoded the body: passing these on would make a client decode or size-check it again.
  headers.delete('content-encoding');
  headers.delete('content-length');
  const copy = new Response(NULL_BODY_STATUSES.has(response.status) ? null : body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  });
  Object.defineProperty(copy, 'url', { value: url });
  return copy;
}

function causeText(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = (cause as Error & { cause?: { code?: string; message?: string } }).cause;
  return inner?.code ?? inner?.message ?? cause.message;
}
