import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  LoggingMessageNotificationSchema,
  type ClientCapabilities,
} from '@modelcontextprotocol/sdk/types.js';
import { proxySummaryText } from '../src/proxy/summary.js';
import { connectThroughProxy, sessionInProcess, type ProxyRun } from './helpers/mcp-proxy.js';
import { REPO_ROOT } from './helpers/paths.js';

// @modelcontextprotocol/server-everything, pinned in package.json, run from node_modules.
const EVERYTHING = [
  process.execPath,
  resolve(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-everything', 'dist', 'index.js'),
  'stdio',
];
const CAPABILITIES: ClientCapabilities = { sampling: {}, elicitation: {}, roots: { listChanged: true } };
const ROOT = { uri: 'file:///tmp/devboy-root', name: 'devboy root' };

/** An agent that can sample, elicit and list roots: what server-everything asks of its client. */
function equip(client: Client): void {
  client.setRequestHandler(CreateMessageRequestSchema, (req) => ({
    model: 'devboy-test-model',
    role: 'assistant',
    content: { type: 'text', text: `sampled: ${JSON.stringify(req.params.messages[0]?.content)}` },
  }));
  client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'decline' }));
  client.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [ROOT] }));
}

/**
 * server-everything over Streamable HTTP on loopback, started once for the file: the direct client of
 * the comparisons below talks to it, and it is the --upstream-url upstream. One server program for
 * both: its answers over HTTP are those over stdio (info, tools, resources, prompts, results), and a
 * third server process would cost 0.4 s of CPU.
 */
let httpEverything: Promise<{ url: string; server: ChildProcess }> | undefined;
const everythingOverHttp = () =>
  (httpEverything ??= (async () => {
    const port = await new Promise<number>((done) => {
      const probe = createServer().listen(0, '127.0.0.1', () => {
        const { port } = probe.address() as AddressInfo;
        probe.close(() => done(port));
      });
    });
    const server = spawn(EVERYTHING[0]!, [EVERYTHING[1]!, 'streamableHttp'], {
      env: { ...process.env, PORT: String(port) },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    await new Promise<void>((ready, fail) => {
      let text = '';
      server.stderr.on('data', (d: Buffer) => {
        text += d.toString();
        if (/listening on port/.test(text)) ready();
      });
      server.once('exit', (code) => fail(new Error(`server-everything exited ${code}: ${text}`)));
    });
    return { url: `http://127.0.0.1:${port}/mcp`, server };
  })());
after(async () => {
  if (httpEverything) (await httpEverything).server.kill();
});

describe('devboy proxy in front of @modelcontextprotocol/server-everything: every feature passes through', () => {
  let proxied: ProxyRun;
  let direct: Client;

  before(async () => {
    proxied = await connectThroughProxy([], EVERYTHING, { capabilities: CAPABILITIES });
    direct = new Client({ name: 'devboy-test-agent', version: '1.0.0' }, { capabilities: CAPABILITIES });
    equip(proxied.client);
    equip(direct);
    await direct.connect(new StreamableHTTPClientTransport(new URL((await everythingOverHttp()).url)));
  });
  after(async () => {
    await proxied.end();
    await direct.close();
  });

  it('initialize: the same server info, capabilities and instructions as the server gives directly', () => {
    assert.deepEqual(proxied.client.getServerVersion(), direct.getServerVersion());
    assert.deepEqual(proxied.client.getServerCapabilities(), direct.getServerCapabilities());
    assert.equal(proxied.client.getInstructions(), direct.getInstructions());
    assert.ok(direct.getInstructions(), 'server-everything gives instructions');
  });

  it("tools/list: the server's tools (those that need sampling, elicitation and roots too), then devboy_result", async () => {
    const [p, d] = await Promise.all([proxied.client.listTools(), direct.listTools()]);
    assert.deepEqual(p.tools.slice(0, -1), d.tools);
    assert.equal(p.tools.at(-1)!.name, 'devboy_result');
    for (const name of ['trigger-sampling-request', 'get-roots-list', 'trigger-elicitation-request'])
      assert.ok(
        d.tools.some((t) => t.name === name),
        name,
      );
  });

  it('tool results that are not JSON text (plain text, an image, resource links, embedded resources, structured content) arrive unchanged', async () => {
    const calls: [string, Record<string, unknown>][] = [
      ['echo', { message: 'hello through the proxy' }],
      ['get-sum', { a: 2, b: 40 }],
      ['get-tiny-image', {}],
      ['get-annotated-message', { messageType: 'error', includeImage: true }],
      ['get-resource-links', { count: 3 }],
      ['get-resource-reference', { resourceType: 'Text', resourceId: 1 }],
      ['get-structured-content', { location: 'Chicago' }],
    ];
    // A dynamic resource says the time it was made, to the second: the two calls, made at once, can
    // straddle a second on a busy machine (the proxied one has further to go). The time is read apart.
    const timed = /created at \d{1,2}:\d{2}:\d{2}[^"\\]*/g;
    const untimed = (r: object) => JSON.parse(JSON.stringify(r).replace(timed, 'created at TIME')) as unknown;
    for (const [name, args] of calls) {
      const [p, d] = await Promise.all([proxied.client.callTool({ name, arguments: args }), direct.callTool({ name, arguments: args })]);
      assert.deepEqual(untimed(p), untimed(d), name);
      assert.equal(JSON.stringify(p).match(timed)?.length, JSON.stringify(d).match(timed)?.length, name);
    }
  });

  it('resources, resource templates, prompts: listed and read the same', async () => {
    const [pr, dr] = await Promise.all([proxied.client.listResources(), direct.listResources()]);
    assert.deepEqual(pr, dr);
    assert.ok(dr.resources.length > 0);
    const uri = dr.resources[0]!.uri;
    assert.deepEqual(await proxied.client.readResource({ uri }), await direct.readResource({ uri }));
    assert.deepEqual(await proxied.client.listResourceTemplates(), await direct.listResourceTemplates());
    const [pp, dp] = await Promise.all([proxied.client.listPrompts(), direct.listPrompts()]);
    assert.deepEqual(pp, dp);
    const simple = dp.prompts.find((x) => !x.arguments?.some((a) => a.required))!;
    assert.deepEqual(await proxied.client.getPrompt({ name: simple.name }), await direct.getPrompt({ name: simple.name }));
  });

  it('progress notifications reach the agent; ping is answered', async () => {
    const progress: number[] = [];
    const r = await proxied.client.callTool({ name: 'trigger-long-running-operation', arguments: { duration: 0.3, steps: 3 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    // The SDK's client runs notification handlers a microtask later but a response at once: the last
    // progress, read in the same chunk as the response, can find its handler gone. The others cannot.
    assert.deepEqual(progress.slice(0, 2), [1, 2]);
    assert.ok(progress.length <= 3);
    assert.match(JSON.stringify(r.content), /Long running operation completed/);
    assert.deepEqual(await proxied.client.ping(), {});
  });

  it('server-to-client requests: sampling, elicitation and roots go to the agent and back', async () => {
    const sampled = await proxied.client.callTool({ name: 'trigger-sampling-request', arguments: { prompt: 'say hi', maxTokens: 10 } });
    assert.match(JSON.stringify(sampled.content), /devboy-test-model/);
    assert.match(JSON.stringify(sampled.content), /sampled: /);
    const roots = await proxied.client.callTool({ name: 'get-roots-list', arguments: {} });
    assert.match(JSON.stringify(roots.content), /file:\/\/\/tmp\/devboy-root/);
    const elicited = await proxied.client.callTool({ name: 'trigger-elicitation-request', arguments: {} });
    assert.match(JSON.stringify(elicited.content), /declin/i);
  });

  it('logging notifications reach the agent', async () => {
    const first = new Promise<string>((done) =>
      proxied.client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => done(String(n.params.data))),
    );
    await proxied.client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
    assert.match(await first, /message/i);
    // Off again: its timer would keep server-everything alive after its stdin ends, and the proxy's
    // close would then wait the SDK's two seconds before a SIGTERM.
    await proxied.client.callTool({ name: 'toggle-simulated-logging', arguments: {} });
  });

  it('the agent ends the session: the proxy exits 0', async () => {
    const end = await proxied.end();
    assert.equal(end.code, 0, end.stderr);
    assert.match(end.stderr, /^devboy proxy: \d+ tool calls through node;/m);
  });
});

describe('devboy proxy --upstream-url: server-everything over Streamable HTTP on loopback', () => {
  it('lists and calls tools through the HTTP upstream; the agent ends the session, the proxy exits 0', async () => {
    const { url } = await everythingOverHttp();
    // The proxy in this process: the claim is the HTTP upstream's traffic and the summary's count;
    // the proxy as a program, its exit status and stderr, is the stdio session's above.
    const { got, outcome } = await sessionInProcess({ url }, {}, async (client) => ({
      tools: (await client.listTools()).tools,
      echo: await client.callTool({ name: 'echo', arguments: { message: 'over http' } }),
    }));
    assert.ok(got.tools.some((t) => t.name === 'echo'));
    assert.equal(got.tools.at(-1)!.name, 'devboy_result');
    assert.deepEqual(got.echo.content, [{ type: 'text', text: 'Echo: over http' }]);
    assert.equal(outcome.exitCode, 0, outcome.notes.join('\n'));
    assert.match(proxySummaryText(outcome.summary), /^devboy proxy: 1 tool call through http:\/\/127\.0\.0\.1:\d+;/);
  });
});
