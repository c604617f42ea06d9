import { DataError, DevboyError } from '../errors.js';
import { formatMiB, MAX_BODY_VARIABLE } from '../http/limits.js';
import { scrubSecrets } from '../http/redact.js';
import type { Failure, Transport } from '../http/transport.js';
import { MAX_DEPTH } from '../json/depth.js';
import { ShapeError } from './json-read.js';
import type { ProviderModule } from './provider-module.js';

/** What a provider failure message needs to be useful: who failed, what to set, what a 404 means. */
export interface FailureContext {
  /** Its display name and the variables or flags that supply credentials. */
  provider: Pick<ProviderModule, 'display' | 'authHint'>;
  tokenGiven: boolean;
  /** Every secret in play, scrubbed from messages as a last guard. */
  secrets: readonly (string | undefined)[];
}

/**
 * Run one client call; turn any failure into one DataError that says what happened and what to do.
 * The transport knows the HTTP facts (status, attempts, waits), so messages do not depend on each
 * library's error classes.
 */
export async function guardCall<T>(ctx: FailureContext, transport: Transport, notFound: string, call: () => Promise<T>): Promise<T> {
  transport.resetFailure();
  try {
    return await call();
  } catch (err) {
    throw providerError(ctx, transport, notFound, err);
  }
}

/** Run a step that reads a response's shape; a ShapeError becomes the one provider error naming the request. */
export function readShape<T>(ctx: FailureContext, transport: Transport, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if (err instanceof ShapeError) throw providerError(ctx, transport, '', err);
    throw err;
  }
}

/** A client call's failure, whatever threw it, as the one provider error that names the request. */
export async function namedFailures<T>(ctx: FailureContext, transport: Transport, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    throw err instanceof DevboyError ? err : providerError(ctx, transport, '', err);
  }
}

export function providerError(ctx: FailureContext, transport: Transport, notFound: string, err: unknown): DevboyError {
  const name = ctx.provider.display;
  const failure = transport.lastFailure();
  let message: string;
  if (err instanceof DevboyError) message = err.message;
  else if (err instanceof ShapeError || (err instanceof SyntaxError && !failure)) {
    const last = transport.journal.at(-1);
    message = `malformed response from ${name}${last ? ` for ${last.method} ${last.url}` : ''}: ${err.message}`;
  } else if (failure) message = describeFailure(name, ctx, failure, notFound);
  else {
    const last = transport.lastRequest();
    message = `${name} request ${last ? `${last.method} ${last.url} ` : ''}failed: ${err instanceof Error ? err.message : String(err)}`;
  }
  return new DataError(scrubSecrets(message, ctx.secrets), undefined, err);
}

function describeFailure(name: string, ctx: FailureContext, f: Failure, notFound: string): string {
  return f.kind === 'status' ? statusText(name, ctx, f, notFound) : unansweredText(name, f);
}

/** A request that got no answer devboy could use: refused, too large or deep, timed out, unreachable. */
function unansweredText(name: string, f: Failure): string {
  const what = `${f.method} ${f.url}`;
  if (f.kind === 'refused') return `${name}: ${f.detail ?? `refused ${what}`}`;
  if (f.kind === 'too-large')
    return `${name} answered ${what} with a body over the ${formatMiB(f.maxBodyBytes ?? 0)} limit (${MAX_BODY_VARIABLE} raises it)`;
  if (f.kind === 'too-deep') return `${name} answered ${what} with JSON nested deeper than ${MAX_DEPTH} levels (devboy's limit)`;
  if (f.kind === 'timeout')
    return `${name} did not answer ${what} within ${formatMs(f.timeoutMs ?? 0)} (${f.attempts} attempt${f.attempts === 1 ? '' : 's'})`;
  return `cannot reach ${name}: ${what} failed (${causeText(f.cause)}) after ${f.attempts} attempt${f.attempts === 1 ? '' : 's'}`;
}

/** An answer with a failed status: a rate limit, credentials, a missing object, a server error. */
function statusText(name: string, ctx: FailureContext, f: Failure, notFound: string): string {
  const what = `${f.method} ${f.url}`;
  const retries = f.attempts - 1;
  const status = f.status ?? 0;
  const said = serverMessage(f.bodyExcerpt);
  if (f.reason === 'rate-limit') {
    const why =
      f.refusedWaitMs !== undefined
        ? `the limit resets in ${formatMs(f.refusedWaitMs)}, longer than the ${formatMs(f.maxWaitMs ?? 0)} devboy waits (raise --max-wait or try later)`
        : `still limited after ${retries} retr${retries === 1 ? 'y' : 'ies'}`;
    return `${name} rate limit (${status}) for ${what}: ${why}`;
  }
  if (status === 401) {
    return ctx.tokenGiven
      ? `${name} rejected the credentials (401) for ${what}: set ${ctx.provider.authHint} to a valid token`
      : `${name} requires credentials (401) for ${what}: set ${ctx.provider.authHint}`;
  }
  if (status === 403) return `${name} denied access (403) for ${what}${said}: set ${ctx.provider.authHint} to credentials that can read it`;
  if (status === 404) return `${notFound} (404 for ${what}${said})`;
  if (status >= 500) return `${name} server error ${status} for ${what} after ${f.attempts} attempt${f.attempts === 1 ? '' : 's'}${said}`;
  return `${name} answered ${status} for ${what}${said}`;
}

/** The `message` (GitHub, GitLab, replay server) or `errorMessages` (Jira) of an error body. */
function serverMessage(excerpt: string | undefined): string {
  if (!excerpt) return '';
  try {
    const body = JSON.parse(excerpt) as { message?: unknown; error?: unknown; errorMessages?: unknown };
    const text =
      typeof body.message === 'string'
        ? body.message
        : typeof body.error === 'string'
          ? body.error
          : Array.isArray(body.errorMessages)
            ? body.errorMessages.join('; ')
            : '';
    return text ? `: ${text.slice(0, 300)}` : '';
  } catch {
    return '';
  }
}

export function formatMs(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 120_000) return `${Math.round(ms / 100) / 10} s`;
  return `${Math.round(ms / 60_000)} min`;
}

function causeText(cause: unknown): string {
  if (!(cause instanceof Error)) return String(cause);
  const inner = (cause as Error & { cause?: { code?: string; message?: string } }).cause;
  return inner?.code ?? inner?.message ?? cause.message;
}
