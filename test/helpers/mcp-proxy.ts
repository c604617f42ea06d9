import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { useLineBuffer } from '../../src/proxy/line-buffer.js';
import type { ProxyOutcome, ProxyRequest } from '../../src/proxy/run.js';
import { runCli, type CliResult } from './cli.js';
import { REPO_ROOT } from './paths.js';

export interface ProxyRun {
  /** The SDK's own client, connected to `devboy proxy` over stdio. */
  client: Client;
  /** What the proxy wrote to stderr so far. */
  stderr(): string;
  /** Resolves when the proxy process has exited (and its stderr ended). */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  /** End the session as an agent does (close the proxy's standard input) and wait for the proxy to exit. */
  end(): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
}

/** The corpus MCP server of test/mcp, as the upstream command line. */
export const CORPUS_SERVER = [process.execPath, resolve(REPO_ROOT, 'dist', 'test', 'mcp', 'corpus-server.js')];

/** test/mcp/failing-server: an upstream with the faults and plain text, no corpus, quick to start. */
export const FAILING_SERVER = [process.execPath, resolve(REPO_ROOT, 'dist', 'test', 'mcp', 'failing-server.js')];

/**
 * `devboy proxy ARGS -- UPSTREAM...` as an agent runs it, with the SDK's Client on the other end.
 * Every wait is on an event (the process's exit, its stderr's end), never on a clock.
 */
export async function connectThroughProxy(
  proxyArgs: readonly string[],
  upstream: readonly string[],
  clientOptions: ClientOptions = {},
): Promise<ProxyRun> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [resolve(REPO_ROOT, 'bin', 'run.js'), 'proxy', ...proxyArgs, ...(upstream.length ? ['--', ...upstream] : [])],
    env: Object.fromEntries(Object.entries({ ...process.env, NO_COLOR: '1' }).filter((e): e is [string, string] => e[1] !== undefined)),
    stderr: 'pipe',
    cwd: REPO_ROOT,
    // A 20 MB result must reach the test whole (the SDK's default is 10 MB).
    maxBufferSize: 64 * 1024 * 1024,
  });
  // The proxy's own reader on the test's side too: the SDK's copies a 20 MB message quadratically.
  await useLineBuffer(transport, 64 * 1024 * 1024);
  let stderr = '';
  const stderrEnded = new Promise<void>((done) => {
    transport.stderr!.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    transport.stderr!.on('end', done);
  });
  const child = (): ChildProcess => (transport as unknown as { _process: ChildProcess })._process;
  const client = new Client({ name: 'devboy-test-agent', version: '1.0.0' }, clientOptions);
  let proc: ChildProcess | undefined;
  const started = transport.start.bind(transport);
  transport.start = async () => {
    await started();
    proc = child();
  };
  const exitedOnly = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) => {
    const wait = () => {
      if (!proc) return setImmediate(wait);
      if (proc.exitCode !== null || proc.signalCode !== null) return done({ code: proc.exitCode, signal: proc.signalCode });
      proc.once('exit', (code, signal) => done({ code, signal }));
    };
    wait();
  });
  await client.connect(transport);
  const exited = exitedOnly.then(async (e) => {
    await stderrEnded;
    return { ...e, stderr };
  });
  return {
    client,
    stderr: () => stderr,
    exited,
    end: async () => {
      proc!.stdin!.end();
      return exited;
    },
  };
}

/** The smallest benchmark run that reads a ledger with --session (one project's comments, one run per cell), in --json. */
export function benchmarkWithLedger(ledger: string, extra: readonly string[] = []): Promise<CliResult> {
  return runCli([
    'benchmark',
    '--project',
    'artsy__emission',
    '--dataset',
    'comments',
    '--runs',
    '1',
    '--json',
    '--session',
    ledger,
    ...extra,
  ]);
}

export interface InProcessProxyRun {
  /** The SDK's own client, connected to runProxy over a pair of in-memory streams. */
  client: Client;
  /** End the session as an agent does (end the proxy's input) and wait for runProxy's outcome and notes. */
  end(): Promise<{ exitCode: number; notes: string[] }>;
}

/**
 * runProxy, what `devboy proxy` runs after parsing its flags, in the test's own process: for a test
 * whose claim is about the proxy's output, not its command line or process, this spares a process
 * that loads the CLI, the formats and the tokenizer the test process has loaded already. `request`
 * is the command's flags as runProxy takes them, over the command's defaults (format auto,
 * o200k_base, dedup and explainers on, --max-result-mb 4).
 */
export async function connectInProcess(upstream: readonly string[], request: Partial<InProcessRequest> = {}): Promise<InProcessProxyRun> {
  const run = await startInProcess({ command: upstream[0]!, args: upstream.slice(1) }, request);
  return {
    client: run.client,
    end: async () => {
      const { exitCode, notes } = await run.end();
      return { exitCode, notes };
    },
  };
}

/** runProxy's flags, without what the helpers here give it (the upstream, the agent's streams, the notes). */
type InProcessRequest = Omit<ProxyRequest, 'upstream' | 'stdin' | 'stdout' | 'onNote'>;

/** What an in-process session ended with: runProxy's outcome (exit status, summary) and its notes. */
export type InProcessOutcome = ProxyOutcome & { notes: string[] };

/**
 * One whole session of runProxy in the test's process, in front of either kind of upstream (a
 * program, or --upstream-url's URL): `calls` with the agent's client, then the session ended however
 * they went (a proxy left running in the test's process, with its upstream, would keep the test file
 * from ending). An upstream that fails ends the session itself; the outcome says so.
 */
export async function sessionInProcess<T>(
  upstream: readonly string[] | { url: string },
  request: Partial<InProcessRequest>,
  calls: (client: Client) => Promise<T>,
): Promise<{ got: T; outcome: InProcessOutcome }> {
  const run = await startInProcess('url' in upstream ? upstream : { command: upstream[0]!, args: upstream.slice(1) }, request);
  let got: T;
  try {
    got = await calls(run.client);
  } catch (err) {
    await run.end();
    throw err;
  }
  return { got, outcome: await run.end() };
}

async function startInProcess(
  upstream: ProxyRequest['upstream'],
  request: Partial<InProcessRequest>,
): Promise<{ client: Client; end(): Promise<InProcessOutcome> }> {
  const [{ runProxy }, { StdioServerTransport }] = await Promise.all([
    import('../../src/proxy/run.js'),
    import('@modelcontextprotocol/sdk/server/stdio.js'),
  ]);
  const toProxy = new PassThrough();
  const fromProxy = new PassThrough();
  const notes: string[] = [];
  const outcome = runProxy({
    upstream,
    format: 'auto',
    tokenizer: 'o200k_base',
    tokenizers: [],
    skipTools: [],
    onlyTools: [],
    budget: null,
    level: null,
    dedup: true,
    explainer: true,
    timeoutMs: 60_000,
    startTimeoutMs: 120_000,
    maxResultMb: 4,
    ...request,
    stdin: toProxy,
    stdout: fromProxy,
    onNote: (line) => notes.push(line),
  });
  const client = new Client({ name: 'devboy-test-agent', version: '1.0.0' });
  // A transport over any pair of streams: the SDK's stdio one reads one and writes the other, whichever side it serves.
  await client.connect(new StdioServerTransport(fromProxy, toProxy));
  return {
    client,
    end: async () => {
      toProxy.end();
      return { ...(await outcome), notes };
    },
  };
}
