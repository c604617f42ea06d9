import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A small HTTP server playing a provider's live API from corpus bodies: it paginates on the fly,
 * checks credentials, and sends what live APIs send (rate-limit counters, cookies, request ids) so
 * tests can check that recordings keep the useful headers and drop the rest.
 */

export interface FakeRequest {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  origin: string;
}

export interface FakeAnswer {
  status?: number;
  headers?: Record<string, string>;
  body: unknown;
}

export type Route = (req: FakeRequest) => FakeAnswer | undefined;

export interface FakeApiOptions {
  authorize: (headers: IncomingHttpHeaders) => boolean;
  /** Answer this status for paths containing the key. */
  failures?: Record<string, number>;
}

export interface FakeApi {
  url: string;
  received: FakeRequest[];
  close(): Promise<void>;
}

export const LIVE_HEADERS: Record<string, string> = {
  'set-cookie': 'logged_in=yes; Path=/; HttpOnly; session_secret=s3cr3t-cookie-value',
  'x-request-id': 'req-0001',
  'x-oauth-scopes': 'repo, read:org',
  'x-ratelimit-limit': '5000',
  'x-ratelimit-remaining': '4999',
  'x-ratelimit-reset': '4102444800',
};

export async function startFakeApi(route: Route, options: FakeApiOptions): Promise<FakeApi> {
  const received: FakeRequest[] = [];
  let origin = '';
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', origin);
    const request: FakeRequest = { method: req.method ?? 'GET', path: url.pathname, query: url.searchParams, headers: req.headers, origin };
    received.push(request);
    req.resume();
    const send = (status: number, headers: Record<string, string>, body: unknown) => {
      const text = JSON.stringify(body);
      res.writeHead(status, {
        'content-type': 'application/json; charset=utf-8',
        ...LIVE_HEADERS,
        ...headers,
        'content-length': Buffer.byteLength(text),
      });
      res.end(text);
    };
    if (!options.authorize(req.headers)) return send(401, {}, { message: 'Bad credentials' });
    const failure = Object.entries(options.failures ?? {}).find(([part]) => url.pathname.includes(part));
    if (failure) return send(failure[1], {}, { message: 'Server Error' });
    const answer = route(request);
    if (!answer) return send(404, {}, { message: 'Not Found' });
    send(answer.status ?? 200, answer.headers ?? {}, answer.body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** Items of 1-based `page` of `perPage`. */
export function pageOf<T>(items: readonly T[], page: number, perPage: number): T[] {
  return items.slice((page - 1) * perPage, page * perPage);
}

/** A GitHub-style Link header for page `page` of `pages`, absolute URLs on this server. */
export function githubLink(req: FakeRequest, page: number, pages: number): string | undefined {
  const at = (n: number) => {
    const q = new URLSearchParams(req.query);
    q.set('page', String(n));
    return `<${req.origin}${req.path}?${q}>`;
  };
  const parts: string[] = [];
  if (page < pages) parts.push(`${at(page + 1)}; rel="next"`, `${at(pages)}; rel="last"`);
  if (page > 1) parts.push(`${at(1)}; rel="first"`, `${at(page - 1)}; rel="prev"`);
  return parts.length > 0 ? parts.join(', ') : undefined;
}
