import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { flatten } from '../errors.js';
import type { LedgerCall } from './ledger.js';
import type { ResultShaper, ToolResult } from './shape-result.js';

/** JSON-RPC error codes the proxy answers with (the SDK's ErrorCode values, kept here so this module loads no SDK code). */
const CONNECTION_CLOSED = -32000;
const REQUEST_TIMEOUT = -32001;

export interface AddedTool {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

export interface BridgeOptions {
  /** The agent's side (the proxy is its server) and the upstream's (the proxy is its client). */
  agent: Transport;
  upstream: Transport;
  /** A request the upstream has not answered in this time gets an error; then the upstream must answer a ping in as long. */
  timeoutMs: number;
  /** The same for initialize: a server started with npx may first be downloaded. */
  startTimeoutMs: number;
  shaper: ResultShaper;
  /** The tool the proxy lists beside the upstream's (null: none). */
  addedTool: AddedTool | null;
  onRecord: (record: LedgerCall) => void;
  /** One line for the person (stderr), never for the agent. */
  onNote: (line: string) => void;
}

export type BridgeEnd = { reason: 'agent-closed' } | { reason: 'upstream-fault'; message: string };

interface Pending {
  id: RequestId;
  method: string;
  tool?: string;
  args?: unknown;
  progressToken?: unknown;
  timer: NodeJS.Timeout;
}

type Message = JSONRPCMessage & {
  id?: RequestId;
  method?: string;
  params?: Record<string, unknown>;
  result?: Record<string, unknown>;
  error?: unknown;
};

/**
 * Moves JSON-RPC messages between the agent and the upstream as they are (the SDK's transports frame,
 * parse and check them), answering for the upstream only where the proxy must: a tools/call result is
 * shaped (ResultShaper), the added tool is answered here and listed with the upstream's tools, and a
 * request the upstream does not answer, or can no longer answer, gets an error. Requests the upstream
 * sends (sampling, elicitation, roots, ping) and every notification pass through untouched.
 */
export class Bridge {
  readonly done: Promise<BridgeEnd>;
  private finish!: (end: BridgeEnd) => void;
  private readonly pending = new Map<string, Pending>();
  private ended = false;
  private pings = 0;
  private pingOutstanding: { key: string; timer: NodeJS.Timeout } | null = null;

  constructor(private readonly o: BridgeOptions) {
    this.done = new Promise((resolve) => (this.finish = resolve));
    o.agent.onmessage = (m) => this.fromAgent(m as Message);
    o.upstream.onmessage = (m) => this.fromUpstream(m as Message);
    o.agent.onerror = (err) => o.onNote(`the agent sent something that is not an MCP message: ${clip(err.message)}`);
    o.agent.onclose = () => this.agentClosed();
  }

  /** The agent closed its side (standard input ended): the session is over. */
  agentClosed(): void {
    if (this.ended) return;
    this.ended = true;
    for (const p of this.pending.values()) clearTimeout(p.timer);
    this.pending.clear();
    this.clearPing();
    this.finish({ reason: 'agent-closed' });
  }

  /** The upstream can answer nothing more: every pending request gets an error now. */
  upstreamFault(message: string): void {
    if (this.ended) return;
    this.ended = true;
    this.clearPing();
    for (const p of this.pending.values()) {
      clearTimeout(p.timer);
      this.answerError(p, CONNECTION_CLOSED, `devboy proxy: the upstream failed: ${message}`);
    }
    this.pending.clear();
    this.o.onNote(`upstream failed: ${message}`);
    this.finish({ reason: 'upstream-fault', message });
  }

  private fromAgent(m: Message): void {
    if (this.ended) return;
    if (m.method !== undefined && m.id !== undefined) return this.agentRequest(m);
    if (m.method === 'notifications/cancelled') {
      const p = this.pending.get(keyOf(m.params?.requestId as RequestId));
      if (p) {
        clearTimeout(p.timer);
        this.pending.delete(keyOf(p.id));
        if (p.method === 'tools/call') this.o.onRecord(this.o.shaper.failed(p.tool ?? '', p.args, 'cancelled by the agent'));
      }
    }
    this.sendUpstream(m);
  }

  private agentRequest(m: Message): void {
    const params = m.params ?? {};
    if (m.method === 'tools/call' && this.o.addedTool && params.name === this.o.addedTool.name) {
      const shaped = this.o.shaper.fetch(params.arguments);
      this.o.onRecord(shaped.record);
      void this.o.agent.send({ jsonrpc: '2.0', id: m.id!, result: shaped.result } as JSONRPCMessage);
      return;
    }
    const meta = params._meta as { progressToken?: unknown } | undefined;
    const p: Pending = {
      id: m.id!,
      method: m.method!,
      ...(m.method === 'tools/call' ? { tool: String(params.name), args: params.arguments } : {}),
      ...(meta?.progressToken !== undefined ? { progressToken: meta.progressToken } : {}),
      timer: this.timer(m.id!, m.method === 'initialize' ? this.o.startTimeoutMs : this.o.timeoutMs),
    };
    this.pending.set(keyOf(m.id!), p);
    this.sendUpstream(m);
  }

  private fromUpstream(m: Message): void {
    if (this.ended) return;
    if (m.method !== undefined) {
      if (m.method === 'notifications/progress') this.progressed(m.params?.progressToken);
      void this.o.agent.send(m);
      return;
    }
    if (m.id === undefined) {
      this.o.onNote(`the upstream sent an error with no id: ${clip(JSON.stringify(m.error))}`);
      return;
    }
    const key = keyOf(m.id);
    if (this.pingOutstanding?.key === key) return this.clearPing();
    const p = this.pending.get(key);
    if (!p) {
      this.o.onNote(`the upstream answered request ${key} after the proxy had answered it (timed out or cancelled); dropped`);
      return;
    }
    clearTimeout(p.timer);
    this.pending.delete(key);
    if (m.result === undefined) {
      if (p.method === 'tools/call') this.o.onRecord(this.o.shaper.failed(p.tool ?? '', p.args, `upstream error: ${errorText(m.error)}`));
      void this.o.agent.send(m);
      return;
    }
    void this.o.agent.send({ jsonrpc: '2.0', id: m.id, result: this.answer(p, m.result) } as JSONRPCMessage);
  }

  /** The result the agent gets for a request the upstream answered. */
  private answer(p: Pending, result: Record<string, unknown>): Record<string, unknown> {
    if (p.method === 'initialize') {
      const version = result.protocolVersion;
      // A Streamable HTTP transport sends the negotiated version as a header from now on; stdio has no such method.
      if (typeof version === 'string') (this.o.upstream as { setProtocolVersion?: (v: string) => void }).setProtocolVersion?.(version);
      return result;
    }
    if (p.method === 'tools/list' && this.o.addedTool && result.nextCursor === undefined && Array.isArray(result.tools)) {
      if (result.tools.some((t) => (t as { name?: unknown }).name === this.o.addedTool!.name)) {
        this.o.onNote(
          `the upstream has a tool named ${this.o.addedTool.name}: the proxy's own is not listed, and calls of that name reach the proxy`,
        );
        return result;
      }
      return { ...result, tools: [...result.tools, this.o.addedTool] };
    }
    if (p.method === 'tools/call') {
      let shaped;
      try {
        shaped = this.o.shaper.shape(p.tool ?? '', p.args, result as ToolResult);
      } catch (err) {
        // A fault of the proxy's own must not cost the agent its result: it gets the upstream's as sent.
        this.o.onNote(`${clip(p.tool ?? '')}: passed through unshaped: ${clip((err as Error).message)}`);
        return result;
      }
      this.o.onRecord(shaped.record);
      if (shaped.record.note) this.o.onNote(`${clip(p.tool ?? '')}: ${shaped.record.note}`);
      return shaped.result;
    }
    return result;
  }

  private timer(id: RequestId, ms = this.o.timeoutMs): NodeJS.Timeout {
    const t = setTimeout(() => this.timedOut(id, ms), ms);
    t.unref();
    return t;
  }

  /** Progress on a request is a sign of life: its time starts again (as the SDK's resetTimeoutOnProgress does). */
  private progressed(token: unknown): void {
    if (token === undefined) return;
    for (const p of this.pending.values()) {
      if (p.progressToken !== token) continue;
      clearTimeout(p.timer);
      p.timer = this.timer(p.id);
    }
  }

  private timedOut(id: RequestId, ms: number): void {
    const p = this.pending.get(keyOf(id));
    if (!p || this.ended) return;
    this.pending.delete(keyOf(id));
    const seconds = ms / 1000;
    const flag = p.method === 'initialize' ? '--start-timeout' : '--timeout';
    this.answerError(p, REQUEST_TIMEOUT, `devboy proxy: the upstream did not answer ${p.method} within ${seconds} s (${flag})`);
    this.sendUpstream({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: p.id, reason: `devboy proxy: no answer within ${seconds} s` },
    } as Message);
    this.o.onNote(`${clip(p.method)}${p.tool ? ` ${clip(p.tool)}` : ''}: no answer within ${seconds} s; the agent got a timeout error`);
    this.checkAlive();
  }

  /** After a timeout: a slow tool is not a dead server, but one that cannot answer a ping in as long is. */
  private checkAlive(): void {
    if (this.pingOutstanding || this.ended) return;
    const id = `devboy-proxy-ping-${++this.pings}`;
    const timer = setTimeout(
      () => this.upstreamFault(`it answers nothing, not even ping, for ${this.o.timeoutMs / 1000} s after a request timed out`),
      this.o.timeoutMs,
    );
    timer.unref();
    this.pingOutstanding = { key: keyOf(id), timer };
    this.sendUpstream({ jsonrpc: '2.0', id, method: 'ping' } as Message);
  }

  private clearPing(): void {
    if (this.pingOutstanding) clearTimeout(this.pingOutstanding.timer);
    this.pingOutstanding = null;
  }

  private answerError(p: Pending, code: number, message: string): void {
    if (p.method === 'tools/call') this.o.onRecord(this.o.shaper.failed(p.tool ?? '', p.args, message));
    void this.o.agent.send({ jsonrpc: '2.0', id: p.id, error: { code, message } } as JSONRPCMessage);
  }

  private sendUpstream(m: Message): void {
    this.o.upstream.send(m).catch((err: Error) => this.upstreamFault(`cannot write to it: ${clip(err.message)}`));
  }
}

/** 1 and "1" are different JSON-RPC ids. */
function keyOf(id: RequestId): string {
  return typeof id === 'number' ? `#${id}` : JSON.stringify(id);
}

function errorText(error: unknown): string {
  const e = error as { code?: unknown; message?: unknown } | undefined;
  return clip(`${typeof e?.message === 'string' ? e.message : 'no message'} (code ${String(e?.code)})`);
}

/** A one-line, bounded piece of something the upstream or agent sent, safe to print. */
export function clip(text: string, max = 200): string {
  const line = flatten(text);
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
