import type { ChildProcess } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { UsageError } from '../errors.js';
import { clip } from './bridge.js';
import { useLineBuffer } from './line-buffer.js';

/** Where the upstream MCP server is: a program the proxy starts (stdio), or a Streamable HTTP URL. */
export type UpstreamSpec = { command: string; args: readonly string[] } | { url: string };

export interface OpenedUpstream {
  transport: Transport;
  /** What the ledger and notes call it: the program's name, or the URL's origin (never arguments or credentials). */
  name: string;
  /** How the upstream ended, once it has (a child's exit code or signal). */
  exit(): string | undefined;
}

/**
 * The SDK's client transport to the upstream, started. Imported here, on demand: no other command
 * loads the SDK (test/cli-startup-modules.test.ts).
 */
export async function openUpstream(spec: UpstreamSpec, maxMessageBytes: number): Promise<OpenedUpstream> {
  if ('url' in spec) {
    let url: URL;
    try {
      url = new URL(spec.url);
    } catch {
      throw new UsageError(`--upstream-url is not a URL: ${clip(spec.url)}`);
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:')
      throw new UsageError(`--upstream-url must be http or https, not ${url.protocol}`);
    const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
    const transport = new StreamableHTTPClientTransport(url);
    await transport.start();
    return { transport, name: url.origin, exit: () => undefined };
  }
  const { StdioClientTransport } = await import('@modelcontextprotocol/sdk/client/stdio.js');
  const transport = new StdioClientTransport({
    command: spec.command,
    args: [...spec.args],
    // The whole environment: an MCP server's credentials come from it (the SDK's default passes six variables).
    env: Object.fromEntries(Object.entries(process.env).filter((e): e is [string, string] => e[1] !== undefined)),
    stderr: 'inherit',
    maxBufferSize: maxMessageBytes,
  });
  await useLineBuffer(transport, maxMessageBytes);
  try {
    await transport.start();
  } catch (err) {
    throw new UsageError(`cannot start the upstream ${clip(spec.command)}: ${clip((err as Error).message)}`);
  }
  // The SDK reports a closed child without its exit status; the status is what tells a crash from an exit.
  let ended: string | undefined;
  const child = (transport as unknown as { _process?: ChildProcess })._process;
  child?.once('exit', (code, signal) => (ended = signal ? `killed by ${signal}` : `exited with code ${code}`));
  return { transport, name: baseName(spec.command), exit: () => ended };
}

/** The SDK's server transport on the agent's side: the proxy's standard input and output. */
export async function openAgentSide(stdin: Readable, stdout: Writable, maxMessageBytes: number): Promise<Transport> {
  const { StdioServerTransport } = await import('@modelcontextprotocol/sdk/server/stdio.js');
  const transport = new StdioServerTransport(stdin, stdout, { maxBufferSize: maxMessageBytes });
  await useLineBuffer(transport, maxMessageBytes);
  return transport;
}

function baseName(command: string): string {
  return command.split(/[\\/]/).pop() || command;
}
