import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A loopback server playing the GitHub and GitLab REST routes devboy's comment poster calls
 * (through Octokit and Gitbeaker): issue comments and merge-request notes kept in memory, 401
 * without the token, every request recorded with its credentials and body.
 */

export interface Seen {
  method: string;
  path: string;
  auth: string | undefined;
  body: string;
}

export interface Played {
  url: string;
  seen: Seen[];
  comments: Map<number, { id: number; body: string }[]>;
  close(): Promise<void>;
}

export const TOKEN = 'test-token-0123456789';

/** GitHub issue comments and GitLab merge-request notes, kept in memory; 401 without the token. */
/**
 * `nextPage`: a Link header sent with every GitHub list of comments (to test where a client follows it).
 * `readOnly`: the token may read but not write, as a pull request from a fork gets it: every write is
 * answered 403, as GitHub and GitLab answer it.
 */
export async function playApis(options: { nextPage?: string; readOnly?: boolean } = {}): Promise<Played> {
  const seen: Seen[] = [];
  const comments = new Map<number, { id: number; body: string }[]>();
  let nextId = 1000;
  const list = (n: number) => comments.get(n) ?? (comments.set(n, []), comments.get(n)!);
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (d: string) => (body += d));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://x');
      const auth = header(req.headers, 'authorization') ?? header(req.headers, 'private-token');
      seen.push({ method: req.method ?? '', path: url.pathname, auth, body });
      const send = (status: number, value: unknown, headers: Record<string, string> = {}) => {
        const text = JSON.stringify(value);
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
        res.end(text);
      };
      if (!auth?.includes(TOKEN)) return send(401, { message: 'Bad credentials' });
      if (options.readOnly && req.method !== 'GET')
        return send(403, { message: url.pathname.startsWith('/api/v4/') ? '403 Forbidden' : 'Resource not accessible by integration' });
      let m = /^\/repos\/acme\/widgets\/issues\/(\d+)\/comments$/.exec(url.pathname);
      if (m && req.method === 'GET')
        return send(200, list(Number(m[1])), options.nextPage ? { link: `<${options.nextPage}>; rel="next"` } : {});
      if (m && req.method === 'POST') {
        const c = { id: nextId++, body: (JSON.parse(body) as { body: string }).body };
        list(Number(m[1])).push(c);
        return send(201, c);
      }
      m = /^\/repos\/acme\/widgets\/issues\/comments\/(\d+)$/.exec(url.pathname);
      if (m && req.method === 'PATCH') {
        const c = [...comments.values()].flat().find((x) => x.id === Number(m![1]));
        if (!c) return send(404, { message: 'Not Found' });
        c.body = (JSON.parse(body) as { body: string }).body;
        return send(200, c);
      }
      m = /^\/api\/v4\/projects\/42\/merge_requests\/(\d+)\/notes(?:\/(\d+))?$/.exec(url.pathname);
      if (m && req.method === 'GET' && !m[2]) return send(200, list(Number(m[1])));
      if (m && req.method === 'POST') {
        const c = { id: nextId++, body: new URLSearchParams(body).get('body') ?? (JSON.parse(body) as { body: string }).body };
        list(Number(m[1])).push(c);
        return send(201, c);
      }
      if (m && req.method === 'PUT' && m[2]) {
        const c = list(Number(m[1])).find((x) => x.id === Number(m![2]));
        if (!c) return send(404, { message: '404 Not found' });
        c.body = new URLSearchParams(body).get('body') ?? (JSON.parse(body) as { body: string }).body;
        return send(200, c);
      }
      send(404, { message: 'Not Found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    comments,
    close: () => new Promise<void>((resolve) => (server.close(() => resolve()), server.closeAllConnections())),
  };
}

function header(h: IncomingHttpHeaders, name: string): string | undefined {
  const v = h[name];
  return Array.isArray(v) ? v[0] : v;
}
