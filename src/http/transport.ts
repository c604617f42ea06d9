import { MAX_DEPTH, tooDeepOffset } from '../json/depth.js';
import { AttemptTimeout, attemptOnce } from './attempt.js';
import { fromHeaderText } from './header-text.js';
import { BodyTooLarge, NULL_BODY_STATUSES } from './body.js';
import { foreignOrigin, RefusedRequest, type Hop } from './hops.js';
import { redactUrl } from './redact.js';
import { backoffMs, classifyResponse, type RetryReason } from './retry-policy.js';
import { transportSettings, type TransportSettings } from './transport-settings.js';

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

/** What a transport remembers between requests. */
interface TransportState {
  journal: ExchangeMeta[];
  lastFailure?: Failure;
  lastRequest?: { method: string; url: string };
}

/** One transport's settings, hooks, underlying fetch and memory: what each request is made with. */
interface Context {
  settings: TransportSettings;
  hooks: TransportHooks;
  baseFetch: typeof fetch;
  state: TransportState;
}

/** The request being made, and which attempt at it. */
interface Attempt {
  method: string;
  url: string;
  attempt: number;
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
  const settings = transportSettings(apiUrl, options);
  const state: TransportState = { journal: [] };
  const context: Context = { settings, hooks, baseFetch, state };
  const transportFetch = (input: Parameters<typeof fetch>[0], init?: RequestInit) => requestWithRetries(context, input, init);
  return {
    fetch: transportFetch as typeof fetch,
    journal: state.journal,
    lastFailure: () => state.lastFailure,
    resetFailure: () => {
      state.lastFailure = undefined;
    },
    lastRequest: () => state.lastRequest,
    timeoutMs: settings.timeoutMs,
    maxBodyBytes: settings.maxBodyBytes,
    origin: settings.origin,
  };
}

async function requestWithRetries(t: Context, input: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> {
  t.state.lastFailure = undefined;
  const { request, method, url } = readRequest(t.state, input, init);
  const foreign = foreignOrigin(method, request.url, t.settings.origin);
  if (foreign !== undefined) return refuse(t.state, method, url, foreign, 0);
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
    const at: Attempt = { method, url, attempt };
    const answer = await attemptOrWait(t, hop, callerSignal, at);
    if (answer === undefined || (await waitedOnStatus(t, answer, at))) continue;
    return deliver(t, answer, at, request.url);
  }
}

/** The request as fetch would make it, its method and its URL with credentials removed; remembered as the latest request. */
function readRequest(
  state: TransportState,
  input: Parameters<typeof fetch>[0],
  init: RequestInit | undefined,
): { request: Request; method: string; url: string } {
  const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
  const rawUrl = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  state.lastRequest = { method, url: redactUrl(rawUrl) };
  let request: Request;
  try {
    request = new Request(input, init);
  } catch {
    // Undici's message would repeat the URL, user info and all.
    return refuse(state, method, redactUrl(rawUrl), `refused ${method} ${redactUrl(rawUrl)}: not a URL devboy can request`, 0);
  }
  const url = redactUrl(request.url);
  state.lastRequest = { method: request.method, url };
  return { request, method: request.method, url };
}

/**
 * One attempt's answer; undefined once the wait before retrying a timeout or a network error is
 * over. A refused hop, a body over the cap, or the last attempt's error fails the request.
 */
async function attemptOrWait(
  t: Context,
  hop: Hop,
  callerSignal: AbortSignal | undefined,
  { method, url, attempt }: Attempt,
): Promise<{ response: Response; body: string } | undefined> {
  const { settings } = t;
  try {
    return await attemptOnce(t.baseFetch, settings, hop, callerSignal);
  } catch (err) {
    if (callerSignal?.aborted) throw err;
    if (err instanceof RefusedRequest) return refuse(t.state, method, url, err.detail, attempt);
    if (err instanceof BodyTooLarge)
      return fail(t.state, { kind: 'too-large', method, url, attempts: attempt, maxBodyBytes: settings.maxBodyBytes });
    const kind = err instanceof AttemptTimeout ? 'timeout' : 'network';
    if (attempt <= settings.maxRetries) {
      const waitMs = backoffMs(attempt, settings.backoffBase, settings.maxWaitMs);
      t.hooks.onRetry?.({ method, url, reason: kind, retry: attempt, waitMs });
      await settings.sleep(waitMs);
      return undefined;
    }
    return fail(t.state, { kind, method, url, attempts: attempt, reason: kind, timeoutMs: settings.timeoutMs, cause: err });
  }
}

/**
 * True once the wait before retrying a rate limit or a server error is over. Otherwise a failed
 * status becomes the last failure (the client still gets the response), and JSON nested too deep
 * fails the request.
 */
async function waitedOnStatus(t: Context, { response, body }: { response: Response; body: string }, at: Attempt): Promise<boolean> {
  const { settings } = t;
  const { method, url, attempt } = at;
  // Measured here, as the body arrives, so every depth gets the one message naming the request:
  // past the limit, JSON.stringify and the encoders would overflow the stack, and no message would.
  if (response.ok && looksLikeJson(response, body) && tooDeepOffset(body) >= 0)
    fail(t.state, { kind: 'too-deep', method, url, attempts: attempt });
  const decision = response.ok ? undefined : classifyResponse(response.status, response.headers, settings.now());
  if (decision && attempt <= settings.maxRetries) {
    const waitMs = decision.requestedWaitMs ?? backoffMs(attempt, settings.backoffBase, settings.maxWaitMs);
    if (waitMs <= settings.maxWaitMs) {
      t.hooks.onRetry?.({ method, url, reason: decision.reason, status: response.status, retry: attempt, waitMs });
      await settings.sleep(waitMs);
      return true;
    }
    t.state.lastFailure = { ...failureOf(method, url, response, body, attempt, decision.reason, waitMs), maxWaitMs: settings.maxWaitMs };
  } else if (!response.ok) {
    t.state.lastFailure = failureOf(method, url, response, body, attempt, decision?.reason);
  }
  return false;
}

/** The final exchange: journalled, handed to the hooks, and rebuilt for the client. */
function deliver(
  t: Context,
  { response, body }: { response: Response; body: string },
  { method, url }: Attempt,
  requestUrl: string,
): Response {
  const recordedHeader = response.headers.get(RECORDED_URL_HEADER);
  const recordedUrl = recordedHeader === null ? undefined : fromHeaderText(recordedHeader);
  const meta: ExchangeMeta = {
    method,
    url,
    status: response.status,
    headers: response.headers,
    ...(recordedUrl ? { recordedUrl } : {}),
  };
  t.state.journal.push(meta);
  t.hooks.onExchange?.({ ...meta, body });
  return rebuild(response, body, requestUrl);
}

function fail(state: TransportState, failure: Failure): never {
  state.lastFailure = failure;
  throw new TransportError(failure);
}

function refuse(state: TransportState, method: string, url: string, detail: string, attempts: number): never {
  return fail(state, { kind: 'refused', method, url, attempts, detail });
}

/** A JSON content type, or a body that opens like a JSON container (some servers send JSON as text/plain). */
function looksLikeJson(response: Response, body: string): boolean {
  return /json/i.test(response.headers.get('content-type') ?? '') || /^[\s\uFEFF]*[[{]/.test(body.slice(0, 1024));
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
