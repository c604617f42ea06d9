import { redactUrl } from './redact.js';

/**
 * One request and its redirects, each hop seen and checked: credentials go to the configured API
 * origin and nowhere else. Node's fetch drops `Authorization` on a cross-origin redirect but keeps
 * every other header (GitLab's `PRIVATE-TOKEN`), and follows up to 20 hops on its own; here a hop
 * to another origin is refused, as is a loop or a long chain.
 */

/** Refused before or while sending: not worth retrying, and the detail says why. */
export class RefusedRequest extends Error {
  constructor(readonly detail: string) {
    super(detail);
    this.name = 'RefusedRequest';
  }
}

export interface Hop {
  method: string;
  url: string;
  headers: Headers;
  body: ArrayBuffer | undefined;
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

const NOWHERE_ELSE = '(devboy sends requests and credentials nowhere else)';

/** Why `url` may not be requested (it is not on `origin`), or undefined when it may. */
export function foreignOrigin(method: string, url: string, origin: string): string | undefined {
  if (originOf(url) === origin) return undefined;
  return `refused ${method} ${redactUrl(url)}: not the configured API origin ${origin} ${NOWHERE_ELSE}`;
}

/** The final response of `first` after following redirects within `origin`, at most `maxRedirects`. */
export async function fetchWithinOrigin(
  baseFetch: typeof fetch,
  first: Hop,
  origin: string,
  signal: AbortSignal,
  maxRedirects: number,
): Promise<Response> {
  const visited = new Set([first.url]);
  let hop = first;
  for (let hops = 0; ;) {
    const response = await baseFetch(hop.url, {
      method: hop.method,
      headers: hop.headers,
      ...(hop.body !== undefined ? { body: hop.body } : {}),
      redirect: 'manual',
      signal,
    });
    const location = REDIRECT_STATUSES.has(response.status) ? response.headers.get('location') : null;
    if (location === null) return response;
    void response.body?.cancel().catch(() => undefined);
    const from = `${first.method} ${redactUrl(hop.url)}`;
    let next: string;
    try {
      next = new URL(location, hop.url).href;
    } catch {
      throw new RefusedRequest(`refused the redirect of ${from}: its Location is not a URL`);
    }
    if (originOf(next) !== origin) {
      throw new RefusedRequest(
        `refused the redirect of ${from} to ${redactUrl(next)}: not the configured API origin ${origin} ${NOWHERE_ELSE}`,
      );
    }
    hops++;
    const request = `${first.method} ${redactUrl(first.url)}`;
    if (visited.has(next)) {
      throw new RefusedRequest(
        `refused ${request}: a redirect loop (redirected back to ${redactUrl(next)} after ${hops} hop${hops === 1 ? '' : 's'})`,
      );
    }
    if (hops > maxRedirects)
      throw new RefusedRequest(`refused ${request}: more than ${maxRedirects} redirects (the last to ${redactUrl(next)})`);
    visited.add(next);
    hop = { ...(changesToGet(response.status, hop.method) ? asGet(hop) : hop), url: next };
  }
}

/** 303 always, and 301/302 after a POST, as browsers and fetch do: the next hop is a GET without a body. */
function changesToGet(status: number, method: string): boolean {
  return (status === 303 && method !== 'GET' && method !== 'HEAD') || ((status === 301 || status === 302) && method === 'POST');
}

function asGet(hop: Hop): Hop {
  const headers = new Headers(hop.headers);
  for (const name of ['content-type', 'content-length', 'content-encoding', 'content-language', 'content-location']) headers.delete(name);
  return { ...hop, method: 'GET', headers, body: undefined };
}

export function originOf(url: string): string | undefined {
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.origin : undefined;
  } catch {
    return undefined;
  }
}
