import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import v8 from 'node:v8';
import vm from 'node:vm';

/**
 * Servers that misbehave the ways a hostile or broken network does, on 127.0.0.1. Each records
 * what it received (method, URL, headers), so a test can check that no credential reached it.
 */

export interface Received {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

/** What to do with one request; it may never finish the response. */
export type Behaviour = (req: Received, res: ServerResponse, origin: string) => void;

export interface HostileServer {
  url: string;
  received: Received[];
  close(): Promise<void>;
}

export async function startHostile(behaviour: Behaviour): Promise<HostileServer> {
  const received: Received[] = [];
  let origin = '';
  const server = createServer((req, res) => {
    const r: Received = { method: req.method ?? 'GET', url: req.url ?? '/', headers: req.headers };
    received.push(r);
    req.resume();
    behaviour(r, res, origin);
  });
  // Keep every socket: closing the server must also end the connections it left hanging.
  server.keepAliveTimeout = 0;
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

/** Accepts the connection, reads the request, never answers. */
export const silent: Behaviour = () => {};

/** Headers at once, then one byte of a JSON array every `everyMs`, forever. */
export function trickle(everyMs = 20): Behaviour {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.write('[');
    const timer = setInterval(() => (res.destroyed ? clearInterval(timer) : res.write(' ')), everyMs);
    res.on('close', () => clearInterval(timer));
  };
}

/** A 200 whose body never ends, written as fast as the client reads it. */
export const endless: Behaviour = (_req, res) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  res.write('[');
  const pump = () => {
    while (!res.destroyed && res.write(chunk));
  };
  res.on('drain', pump);
  pump();
};

/** A 200 that announces (and sends) `bytes` bytes of a JSON array. */
export function bigBody(bytes: number): Behaviour {
  return (_req, res) => {
    const body = Buffer.alloc(bytes, 0x20);
    body[0] = 0x5b;
    body[bytes - 1] = 0x5d;
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(bytes) });
    res.end(body);
  };
}

/** Redirects every request to the same path and query on `target` (another origin). */
export function redirectTo(target: () => string, status = 302): Behaviour {
  return (req, res) => {
    res.writeHead(status, { location: `${target()}${req.url}` });
    res.end();
  };
}

/** Redirects every request back to itself: a loop. */
export const redirectLoop: Behaviour = (req, res) => {
  res.writeHead(302, { location: req.url });
  res.end();
};

/** Answers JSON. */
export function json(status: number, body: unknown, headers: Record<string, string> = {}): Behaviour {
  return (_req, res) => {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(text)), ...headers });
    res.end(text);
  };
}

/** Every credential header a request carried (GitHub and Jira: Authorization; GitLab: PRIVATE-TOKEN; any cookie). */
export function credentialsIn(received: readonly Received[]): string[] {
  const out: string[] = [];
  for (const r of received) {
    for (const name of ['authorization', 'private-token', 'job-token', 'cookie', 'proxy-authorization']) {
      const value = r.headers[name];
      if (value !== undefined) out.push(`${name}: ${String(value)}`);
    }
    if (/[?&](access_token|private_token)=/i.test(r.url)) out.push(r.url);
  }
  return out;
}

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/**
 * Run `work` while full garbage collections run every `everyMs`, as they do in a long run. Node
 * 20's fetch forgets an abort signal whose `Request` was collected, so a timeout that only works
 * without collections is not a timeout.
 */
export async function underGcPressure<T>(work: () => Promise<T>, everyMs = 25): Promise<T> {
  return (await underGcPressureTimed(work, everyMs)).value;
}

/**
 * As underGcPressure, and how long the forced collections took: on a busy machine they take longer,
 * and that time (a timer that came due during one fires after it) is this test's, not the client's.
 */
export async function underGcPressureTimed<T>(work: () => Promise<T>, everyMs: number): Promise<{ value: T; collectingMs: number }> {
  let collectingMs = 0;
  const timer = setInterval(() => {
    const started = performance.now();
    gc();
    collectingMs += performance.now() - started;
  }, everyMs);
  try {
    return { value: await work(), collectingMs };
  } finally {
    clearInterval(timer);
  }
}

/** `promise`, or a rejection naming `what` once `ms` have passed: a test must fail, not hang. */
export async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: still running after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, limit]);
  } finally {
    clearTimeout(timer);
  }
}
