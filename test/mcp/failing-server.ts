// An MCP upstream that fails on request (test/proxy-hostile.test.ts) or says the text it is given:
// JSON-RPC over stdio by hand, without the SDK. Why: the proxy's handling of a dying, hanging, frozen
// or junk-writing upstream does not depend on how the upstream is written, and the SDK's import is
// most of a server's start-up; a test that starts one upstream per fault pays it each time. The
// corpus server (corpus-server.ts) has the same tools, for the tests that also want its bodies.
// Run: node dist/test/mcp/failing-server.js
import { createInterface } from 'node:readline';

type Request = {
  id?: string | number;
  method: string;
  params?: { protocolVersion?: string; name?: string; arguments?: { text?: unknown } };
};

const send = (message: object) => process.stdout.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
const lines = createInterface({ input: process.stdin });

lines.on('line', (line) => {
  const req = JSON.parse(line) as Request;
  // Notifications (initialized, cancelled) need no answer.
  if (req.id === undefined) return;
  if (req.method === 'initialize')
    return send({
      id: req.id,
      result: {
        protocolVersion: req.params?.protocolVersion,
        capabilities: { tools: {} },
        serverInfo: { name: 'devboy-failing', version: '1.0.0' },
      },
    });
  if (req.method === 'ping') return send({ id: req.id, result: {} });
  if (req.method !== 'tools/call') return send({ id: req.id, error: { code: -32601, message: `no method ${req.method}` } });
  switch (req.params?.name) {
    case 'say':
      return send({ id: req.id, result: { content: [{ type: 'text', text: String(req.params.arguments?.text ?? '') }] } });
    case 'die':
      process.exit(3);
      break;
    case 'hang':
      return;
    case 'freeze':
      // Alive but deaf: nothing read or answered again, and a timer keeps the process from ending.
      lines.close();
      process.stdin.pause();
      setInterval(() => undefined, 60_000);
      return;
    case 'junk':
      process.stdout.write('this line is not JSON-RPC\n');
      return;
    default:
      return send({ id: req.id, result: { content: [{ type: 'text', text: `unknown tool ${req.params?.name}` }], isError: true } });
  }
});
