import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { JsonValue } from '../json/types.js';
import { RECORDED_URL_HEADER } from '../http/transport.js';
import { toHeaderText } from '../http/header-text.js';
import { unsendableResponse, type CorpusEntry } from './exchange.js';
import { closestRecording, indexRecordings, matchRequest, type Match, type RecordingIndex } from './match.js';

/**
 * Serves recorded exchanges on 127.0.0.1 so the real client libraries can be pointed at it
 * (Octokit `baseUrl`, Gitbeaker `host`, jira.js `host`). Absolute URLs in `Link` headers are
 * rewritten to this server so pagination stays here. Tests can queue faults.
 */

interface FaultScope {
  /** How many matching requests get the fault (default 1; Infinity for all). */
  times?: number;
  /** Only requests whose path and query contain this string or match this pattern. */
  path?: string | RegExp;
}

export type Fault =
  | (FaultScope & { status: number; headers?: Record<string, string>; body?: JsonValue })
  | (FaultScope & { hang: true })
  | (FaultScope & { malformed: true });

export interface ReplayServerOptions {
  entries: readonly CorpusEntry[];
  faults?: readonly Fault[];
  /** Answer 401 unless this accepts the request's headers: lets a test play an API that checks credentials. */
  authorize?: (headers: IncomingHttpHeaders) => boolean;
  /** Added to every answer (e.g. the cookies and counters a live API sends). */
  extraHeaders?: Record<string, string>;
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
}

const DROPPED_HEADERS = new Set(['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive']);

export class ReplayServer {
  readonly received: ReceivedRequest[] = [];
  /** The recording (its file) each request was answered with, in order: what a replay measured. */
  readonly answered: string[] = [];
  private readonly recordings: RecordingIndex;
  private readonly faults: (Fault & { left: number })[] = [];

  private constructor(
    private readonly server: Server,
    readonly url: string,
    private readonly options: ReplayServerOptions,
  ) {
    this.recordings = indexRecordings(options.entries);
    for (const fault of options.faults ?? []) this.injectFault(fault);
  }

  static async start(options: ReplayServerOptions): Promise<ReplayServer> {
    // The handler needs the instance, which needs the listening server's port.
    const bound: { instance?: ReplayServer } = {};
    const server = createServer((req, res) => {
      bound.instance!.handle(req, res);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    const { port } = server.address() as AddressInfo;
    bound.instance = new ReplayServer(server, `http://127.0.0.1:${port}`, options);
    return bound.instance;
  }

  injectFault(fault: Fault): void {
    this.faults.push({ ...fault, left: fault.times ?? 1 });
  }

  /** The recording that would answer this request (absolute URLs on any host are fine). */
  find(method: string, url: string): CorpusEntry | undefined {
    return matchRequest(this.recordings, method, pathAndQuery(url))?.recording.entry;
  }

  async close(): Promise<void> {
    await new Promise<void>((resolve) => {
      this.server.close(() => resolve());
      // Hanging fault answers keep sockets open; close() would wait for them forever.
      this.server.closeAllConnections();
    });
  }

  /**
   * A recording the server cannot send (see unsendableResponse), or any other fault in answering,
   * is answered with 502 naming the recording: the client's failure then names it and the rest of
   * the corpus goes on. An exception here would end the whole process with a stack trace.
   */
  private handle(req: IncomingMessage, res: ServerResponse): void {
    try {
      this.answer(req, res);
    } catch (err) {
      const what = err instanceof Error ? err.message : String(err);
      if (res.headersSent) res.destroy();
      else this.badRecording(res, this.answering ?? 'a recording', what);
    } finally {
      this.answering = undefined;
    }
  }

  /** The recording being answered, for naming it when answering fails. */
  private answering: string | undefined;

  private badRecording(res: ServerResponse, file: string, reason: string): void {
    this.send(
      res,
      502,
      { 'content-type': 'application/json; charset=utf-8', 'x-devboy-replay': 'bad-recording' },
      JSON.stringify({ message: `devboy replay: cannot answer with ${file}: ${reason}` }),
    );
  }

  private answer(req: IncomingMessage, res: ServerResponse): void {
    const method = (req.method ?? 'GET').toUpperCase();
    const target = req.url ?? '/';
    this.received.push({ method, url: target, headers: req.headers });
    req.resume();
    if (this.options.authorize && !this.options.authorize(req.headers)) {
      this.send(res, 401, { 'content-type': 'application/json; charset=utf-8' }, JSON.stringify({ message: 'Bad credentials' }));
      return;
    }
    const fault = this.takeFault(target);
    if (fault && 'hang' in fault) return;
    const match = matchRequest(this.recordings, method, target);
    if (fault) this.sendFault(res, fault, match);
    else if (!match) this.sendMiss(res, method, target);
    else this.sendRecording(res, match, target);
  }

  /** An injected fault: half a body, or a status with its headers and body. */
  private sendFault(res: ServerResponse, fault: Exclude<Fault, { hang: true }>, match: Match | undefined): void {
    if ('malformed' in fault) {
      const text = match ? JSON.stringify(match.recording.entry.exchange.response.body) : '{"items": [';
      this.send(res, 200, { 'content-type': 'application/json; charset=utf-8' }, text.slice(0, Math.max(1, Math.floor(text.length / 2))));
      return;
    }
    const body = fault.body ?? { message: `devboy replay: injected ${fault.status}` };
    this.send(
      res,
      fault.status,
      { 'content-type': 'application/json; charset=utf-8', ...fault.headers },
      typeof body === 'string' ? body : JSON.stringify(body),
    );
  }

  /** No recording answers the request: a 404 naming the closest one. */
  private sendMiss(res: ServerResponse, method: string, target: string): void {
    const closest = closestRecording(this.recordings, method, target);
    const hint = closest
      ? `; closest recorded: ${closest.entry.exchange.request.method} ${closest.entry.exchange.request.url}`
      : '; nothing recorded for this method';
    this.send(
      res,
      404,
      { 'content-type': 'application/json; charset=utf-8', 'x-devboy-replay': 'miss' },
      JSON.stringify({ message: `devboy replay: no recording for ${method} ${target}${hint}` }),
    );
  }

  /** The recorded response, its Link header pointed at this server and the recording named in headers. */
  private sendRecording(res: ServerResponse, match: Match, target: string): void {
    const { exchange, file } = match.recording.entry;
    this.answering = file;
    this.answered.push(file);
    const unsendable = unsendableResponse(exchange.response);
    if (unsendable) {
      this.badRecording(res, file, unsendable);
      return;
    }
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(exchange.response.headers)) {
      if (DROPPED_HEADERS.has(name)) continue;
      headers[name] = name === 'link' ? this.rewriteLink(value, target, exchange.request.url) : value;
    }
    headers['content-type'] ??= 'application/json; charset=utf-8';
    // URLs and file names may hold any text; a header only Latin-1 (read back with fromHeaderText).
    headers[RECORDED_URL_HEADER] = toHeaderText(exchange.request.url);
    headers['x-devboy-recording'] = toHeaderText(file);
    const body = exchange.response.body;
    const text = typeof body === 'string' && !/json/i.test(headers['content-type']) ? body : JSON.stringify(body);
    this.send(res, exchange.response.status, headers, text);
  }

  private takeFault(target: string): Fault | undefined {
    const fault = this.faults.find(
      (f) => f.left > 0 && (f.path === undefined || (typeof f.path === 'string' ? target.includes(f.path) : f.path.test(target))),
    );
    if (fault) fault.left--;
    return fault;
  }

  private send(res: ServerResponse, status: number, headers: Record<string, string>, body: string): void {
    res.writeHead(status, { ...this.options.extraHeaders, ...headers, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }

  /** Point every absolute URL of a Link header (and GitLab's recorded placeholder) at this server. */
  private rewriteLink(value: string, requestTarget: string, recordedUrl: string): string {
    const apiPrefix = /^\/api\/v\d+/.exec(requestTarget)?.[0] ?? /^\/api\/v\d+/.exec(pathAndQuery(recordedUrl))?.[0] ?? '/api/v4';
    return value.replace(/<([^>]*)>/g, (_whole, link: string) => {
      if (link.startsWith('[GITLAB_API_ENDPOINT]')) return `<${this.url}${apiPrefix}${link.slice('[GITLAB_API_ENDPOINT]'.length)}>`;
      // A URL that does not parse stays as recorded: the client's origin rule then refuses it, by name.
      if (/^https?:\/\//i.test(link) && URL.canParse(link)) return `<${this.url}${pathAndQuery(link)}>`;
      return `<${link}>`;
    });
  }
}

function pathAndQuery(url: string): string {
  if (!/^https?:\/\//i.test(url)) return url;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}
