// An MCP upstream that fails on request (test/proxy-hostile.test.ts) or says the text it is given,
// and has no tools/list: the smallest upstream, for the tests of faults. The corpus server
// (corpus-server.ts) has the same tools, for the tests that also want its bodies.
// Run: node dist/test/mcp/failing-server.js
import { sayOrFault, serveStdio } from './stdio-server.js';

const server = serveStdio('devboy-failing', (req) => {
  if (req.method !== 'tools/call') return { error: { code: -32601, message: `no method ${req.method}` } };
  return sayOrFault(server, req) ?? { result: { content: [{ type: 'text', text: `unknown tool ${req.params?.name}` }], isError: true } };
});
