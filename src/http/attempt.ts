import { readBounded } from './body.js';
import { fetchWithinOrigin, type Hop } from './hops.js';
import { MAX_REDIRECTS } from './limits.js';

/** Signals the end of an attempt's time; a distinct class so it cannot be mistaken for a caller's abort. */
export class AttemptTimeout extends Error {
  constructor() {
    super('attempt timed out');
    this.name = 'AttemptTimeout';
  }
}

/** What one attempt is bounded by. */
export interface AttemptLimits {
  /** The only origin a hop may go to. */
  origin: string;
  timeoutMs: number;
  maxBodyBytes: number;
}

/** One attempt: every hop and the whole body, or a rejection once `timeoutMs` has passed, whatever fetch does. */
export async function attemptOnce(
  baseFetch: typeof fetch,
  limits: AttemptLimits,
  hop: Hop,
  callerSignal: AbortSignal | undefined,
): Promise<{ response: Response; body: string }> {
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
    }, limits.timeoutMs);
  });
  const work = (async () => {
    const response = await fetchWithinOrigin(baseFetch, hop, limits.origin, controller.signal, MAX_REDIRECTS);
    return { response, body: await readBounded(response, limits.maxBodyBytes) };
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
}
