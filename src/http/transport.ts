import { UsageError } from '../errors.js';
import { MAX_DEPTH, tooDeepOffset } from '../json/depth.js';
import { fromHeaderText } from './header-text.js';
import { BodyTooLarge, NULL_BODY_STATUSES, readBounded } from './body.js';
import { fetchWithinOrigin, foreignOrigin, RefusedRequest, type Hop } from './hops.js';
import { MAX_REDIRECTS, MAX_TIMER_MS, maxBodyBytesFrom } from './limits.js';
import { redactUrl } from './redact.js';
import { backoffMs, classifyResponse, type RetryReason } from './retry-policy.js';

/**
 * The one place devboy talks HTTP. Every client library (Octokit, Gitbeaker, jira.js) is handed
 * this fetch, so timeouts, bounded retries, rate-limit waits, size caps, the origin rule and
 * recording behave the same for all three providers, and tests can make every wait instant by
 * injecting `sleep`.
 *
 * Bounds: an attempt (connect, redirects, headers, whole body) ends within `timeoutMs`; a request
 * makes at most `maxRetries + 1` attempts with at most `maxRetries` waits of at most `maxWaitMs`
 * each; a body stops at `maxBodyBytes`. Requests go only to the configured origin.
 */

export interface HttpOptions {
  /** Per attempt, covering connect, redirects, headers and the whole body. Default 30 s. */
  timeoutMs?: number;
  /** Retries after the first attempt, for rate limits, 5xx, timeouts and network errors. Default 3. */
  maxRetries?: number;
  /** The longest single wait devboy accepts; a rate limit that resets later fails at once. Default 60 s. */
  maxWaitMs?: number;
  /** First backoff when the server does not say how long to wait; doubles per retry. Default 1 s. */
  backoffBaseMs?: number;
  /** Largest response body accepted (decoded bytes). Default 64 MiB, or DEVBOY_MAX_BODY_MB. */
  maxBodyBytes?: number;
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
  /**
   * `refused`: another origin, a redirect loop, a URL that cannot be requested; `too-large`: the body
   * cap; `too-deep`: JSON nested past MAX_DEPTH.
   */
  kind: 'status' | 'timeout' | 'network' | 'refused' | 'too-large' | 'too-deep';
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
  /** Why a `refused` request was refused: one line, naming the request. */
  detail?: string;
  maxBodyBytes?: number;
  cause?: unknown;
}

export class TransportError extends Error {
  constructor(readonly failure: Failure) {
    super(transportMessage(failure));
    this.name = 'TransportError';
  }
}

function transportMessage(f: Failure): string {
  if (f.kind === 'timeout') return `no answer within ${f.timeoutMs} ms`;
  if (f.kind === 'refused') return f.detail ?? `refused ${f.method} ${f.url}`;
  if (f.kind === 'too-large') return `the body of ${f.method} ${f.url} is over ${f.maxBodyBytes} bytes`;
  if (f.kind === 'too-deep') return `the body of ${f.method} ${f.url} nests deeper than ${MAX_DEPTH} levels`;
  return `cannot connect: ${causeText(f.cause)}`;
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
  /** The latest request asked of this transport (credentials removed), failed or not. */
  lastRequest(): { method: string; url: string } | undefined;
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  /** The only origin requests go to. */
  readonly origin: string;
}

/** Signals the end of an attempt's time; a distinct class so it cannot be mistaken for a caller's abort. */
class AttemptTimeout extends Error {
  constructor() {
    super('attempt timed out');
    this.name = 'AttemptTimeout';
  }
}

/**
 * A transport for the API at `apiUrl`: requests to any other origin (scheme, host and port) are
 * refused, which covers next-page links and redirects whatever the client library does with them.
 */
export function createTransport(
  apiUrl: string,
  options: HttpOptions = {},
  hooks: TransportHooks = {},
  baseFetch: typeof fetch = fetch,
): Transport {
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
  const journal: ExchangeMeta[] = [];
  let lastFailure: Failure | undefined;
  let lastRequest: { method: string; url: string } | undefined;

  const refuse = (method: string, url: string, detail: string, attempts: number): never => {
    lastFailure = { kind: 'refused', method, url, attempts, detail };
    throw new TransportError(lastFailure);
  };

  /** One attempt: every hop and the whole body, or a rejection once `timeoutMs` has passed, whatever fetch does. */
  const attemptOnce = async (hop: Hop, callerSignal: AbortSignal | undefined): Promise<{ response: Response; body: string }> => {
    const controller = new AbortController();
    const forward = () => controller.abort(callerSignal?.reason);
    if (callerSignal?.aborted) forward();
    callerSignal?.addEventListener('abort', forward, { once: true });
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const timeout = new AttemptTimeout();
        controller.abort(timeout);
        reject(timeout);
      }, timeoutMs);
    });
    const work = (async () => {
      const response = await fetchWithinOrigin(baseFetch, hop, origin, controller.signal, MAX_REDIRECTS);
      return { response, body: await readBounded(response, maxBodyBytes) };
    })();
    // After the deadline, whatever the abandoned work ends with concerns nobody.
    work.catch(() => undefined);
    try {
      return await Promise.race([work, deadline]);
    } finally {
      clearTimeout(timer);
      callerSignal?.removeEventListener('abort', forward);
      // Releases the connection of a failed attempt; a finished body makes this a no-op.
      controller.abort();
    }
  };

  const transportFetch = async (input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    lastFailure = undefined;
    let method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const rawUrl = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    lastRequest = { method, url: redactUrl(rawUrl) };
    let request: Request;
    try {
      request = new Request(input, init);
    } catch {
      // Undici's message would repeat the URL, user info and all.
      return refuse(method, redactUrl(rawUrl), `refused ${method} ${redactUrl(rawUrl)}: not a URL devboy can request`, 0);
    }
    method = request.method;
    const url = redactUrl(request.url);
    lastRequest = { method, url };
    const foreign = foreignOrigin(method, request.url, origin);
    if (foreign !== undefined) return refuse(method, url, foreign, 0);
    // Read once: every attempt and hop sends the same bytes. The caller's signal is taken from what it
    // passed, not from `request`, whose link to it lives only as long as that object.
    const hop: Hop = {
      method,
      url: request.url,
      headers: request.headers,
      body: request.body === null ? undefined : await request.arrayBuffer(),
    };
    const callerSignal = init?.signal ?? (input instanceof Request ? input.signal : undefined);
    for (let attempt = 1; ; attempt++) {
      const retriesLeft = attempt <= maxRetries;
      let response: Response;
      let body: string;
      try {
        ({ response, body } = await attemptOnce(hop, callerSignal));
      } catch (err) {
        if (callerSignal?.aborted) throw err;
        if (err instanceof RefusedRequest) return refuse(method, url, err.detail, attempt);
        if (err instanceof BodyTooLarge) {
          lastFailure = { kind: 'too-large', method, url, attempts: attempt, maxBodyBytes };
          throw new TransportError(lastFailure);
        }
        const kind = err instanceof AttemptTimeout ? 'timeout' : 'network';
        if (retriesLeft) {
          const waitMs = backoffMs(attempt, backoffBase, maxWaitMs);
          hooks.onRetry?.({ method, url, reason: kind, retry: attempt, waitMs });
          await sleep(waitMs);
          continue;
        }
        lastFailure = { kind, method, url, attempts: attempt, reason: kind, timeoutMs, cause: err };
        throw new TransportError(lastFailure);
      }

      // Measured here, as the body arrives, so every depth gets the one message naming the request:
      // past the limit, JSON.stringify and the encoders would overflow the stack, and no message would.
      if (response.ok && looksLikeJson(response, body) && tooDeepOffset(body) >= 0) {
        lastFailure = { kind: 'too-deep', method, url, attempts: attempt };
        throw new TransportError(lastFailure);
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

      const recordedHeader = response.headers.get(RECORDED_URL_HEADER);
      const recordedUrl = recordedHeader === null ? undefined : fromHeaderText(recordedHeader);
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
    lastRequest: () => lastRequest,
    timeoutMs,
    maxBodyBytes,
    origin,
  };
}

/** A JSON content type, or a body that opens like a JSON container (some servers send JSON as text/plain). */
function looksLikeJson(response: Response, body: string): boolean {
  return /json/i.test(response.headers.get('content-type') ?? '') || /^[\s\uFEFF]*[[{]/.test(body.slice(0, 1024));
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
