// The stdio side of a small MCP server, JSON-RPC by hand: the test upstreams of this folder are built
// on it. Why not the SDK's Server: its import is most of such a server's start-up (about 250 ms of CPU
// of the corpus server's 330), and the proxy's tests start an upstream for nearly every session; how
// the upstream is written changes nothing the proxy does (it sees the same lines either way).
import { createInterface } from 'node:readline';

export interface McpRequest {
  id?: string | number;
  method: string;
  params?: { protocolVersion?: string; cursor?: string; name?: string; arguments?: Record<string, unknown> };
}

/** A handler's answer: a result, a JSON-RPC error, or none ever. */
export type Answer = { result: object } | { error: { code: number; message: string } } | 'unanswered';

export interface StdioServer {
  /** Alive but deaf: nothing read or answered again, and a timer keeps the process from ending. */
  deafen(): void;
}

/** Serves initialize and ping itself; every other request goes to `handle`, in the order it came. */
export function serveStdio(name: string, handle: (req: McpRequest) => Answer | Promise<Answer>): StdioServer {
  const send = (message: object) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
  const lines = createInterface({ input: process.stdin });
  lines.on('line', (line) => {
    const req = JSON.parse(line) as McpRequest;
    // Notifications (initialized, cancelled) need no answer.
    if (req.id === undefined) return;
    if (req.method === 'initialize')
      return send({
        id: req.id,
        result: { protocolVersion: req.params?.protocolVersion, capabilities: { tools: {} }, serverInfo: { name, version: '1.0.0' } },
      });
    if (req.method === 'ping') return send({ id: req.id, result: {} });
    void Promise.resolve(handle(req)).then((answer) => answer !== 'unanswered' && send({ id: req.id, ...answer }));
  });
  return {
    deafen: () => {
      lines.close();
      process.stdin.pause();
      setInterval(() => undefined, 60_000);
    },
  };
}

/**
 * The tools every upstream here has: `say` (its text back) and the faults (`die` exits 3 unanswered,
 * `hang` never answers, `freeze` stops reading, `junk` writes a line that is not JSON-RPC); undefined
 * for any other tool.
 */
export function sayOrFault(server: StdioServer, req: McpRequest): Answer | undefined {
  switch (req.params?.name) {
    case 'say':
      return { result: { content: [{ type: 'text', text: String(req.params.arguments?.text ?? '') }] } };
    case 'die':
      return process.exit(3);
    case 'hang':
      return 'unanswered';
    case 'freeze':
      server.deafen();
      return 'unanswered';
    case 'junk':
      process.stdout.write('this line is not JSON-RPC\n');
      return 'unanswered';
    default:
      return undefined;
  }
}
