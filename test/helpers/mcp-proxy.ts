import type { ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { Client, type ClientOptions } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { useLineBuffer } from '../../src/proxy/line-buffer.js';
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
