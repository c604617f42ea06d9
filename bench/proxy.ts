import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { useLineBuffer } from '../src/proxy/line-buffer.js';
import { corpusBodies } from '../test/mcp/corpus-server.js';
import type { BenchContext, BenchOutcome, BenchSection } from './section.js';

const CLI = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const SERVER = fileURLToPath(new URL('../test/mcp/corpus-server.js', import.meta.url));
const CORPUS = fileURLToPath(new URL('../../corpus', import.meta.url));
const MAX_MESSAGE = 64 * 1024 * 1024;

interface Timing {
  median_ms: number;
  p99_ms: number;
  n: number;
}

/** An SDK client on the corpus server, directly or through `devboy proxy ARGS`. */
async function connect(proxyArgs: string[] | null): Promise<Client> {
  const args = proxyArgs === null ? [SERVER] : [CLI, 'proxy', ...proxyArgs, '--', process.execPath, SERVER];
  const transport = new StdioClientTransport({ command: process.execPath, args, stderr: 'ignore', maxBufferSize: MAX_MESSAGE });
  // Both clients read with the proxy's line reader, so the client side costs the same either way.
  await useLineBuffer(transport, MAX_MESSAGE);
  const client = new Client({ name: 'devboy-bench', version: '1.0.0' });
  await client.connect(transport);
  return client;
}

async function timed(call: () => Promise<unknown>): Promise<number> {
  const t0 = performance.now();
  await call();
  return performance.now() - t0;
}

function stats(samples: number[]): Timing {
  const s = [...samples].sort((a, b) => a - b);
  const at = (q: number) => s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!;
  return { median_ms: round(at(0.5)), p99_ms: round(at(0.99)), n: s.length };
}

/**
 * What `devboy proxy` adds to a tool call: the same calls to the same corpus server, directly and through
 * the proxy, interleaved in one run, on small results and on the largest corpus bodies; and small calls
 * made while a 20 MB result is on its way, through the proxy and directly.
 */
export const proxySection: BenchSection = {
  name: 'proxy',
  description: 'devboy proxy: time added per call (median, p99) vs calling the same upstream directly; small calls during a 20 MB result',
  async run(ctx: BenchContext): Promise<BenchOutcome> {
    const smallRuns = Number(ctx.options.get('proxy-small-runs') ?? 200);
    const largeRuns = Number(ctx.options.get('proxy-large-runs') ?? 5);
    const load = loadavg()[0]!.toFixed(2);
    const bodies = corpusBodies(CORPUS);
    const largest = [...bodies.entries()]
      .map(([name, body]) => ({ name, bytes: JSON.stringify(body, null, 2).length }))
      .sort((a, b) => b.bytes - a.bytes)
      .slice(0, 5);
    // No dedup: every call is re-encoded, as a first call would be.
    const [direct, proxied] = await Promise.all([connect(null), connect(['--no-dedup'])]);
    const rows: { case: string; direct: Timing; proxied: Timing; ratio: number; added_ms: number }[] = [];
    const compare = async (name: string, runs: number, call: (c: Client) => () => Promise<unknown>) => {
      const d: number[] = [];
      const p: number[] = [];
      await call(direct)();
      await call(proxied)();
      for (let i = 0; i < runs; i++) {
        d.push(await timed(call(direct)));
        p.push(await timed(call(proxied)));
      }
      const row = { case: name, direct: stats(d), proxied: stats(p), ratio: 0, added_ms: 0 };
      row.ratio = round(row.proxied.median_ms / row.direct.median_ms);
      row.added_ms = round(row.proxied.median_ms - row.direct.median_ms);
      ctx.log(`  ${name}: direct ${row.direct.median_ms} ms, proxied ${row.proxied.median_ms} ms (x${row.ratio})`);
      rows.push(row);
    };
    await compare('small JSON result (5 rows, 0.5 KB)', smallRuns, (c) => () => c.callTool({ name: 'slow', arguments: { ms: 0 } }));
    await compare('plain text result', smallRuns, (c) => () => c.callTool({ name: 'say', arguments: { text: 'ok' } }));
    for (const b of largest)
      await compare(
        `${b.name} (${Math.round(b.bytes / 1024)} KB)`,
        largeRuns,
        (c) => () => c.callTool({ name: 'get_body', arguments: { name: b.name } }),
      );

    // While a 20 MB result travels, small calls go on: through the proxy (which passes it on unread
    // above --max-result-mb) and directly.
    const during = async (client: Client, mb = 20) => {
      let hugeDone = false;
      const huge = client.callTool({ name: 'huge', arguments: { mb } }).then(() => (hugeDone = true));
      const small: number[] = [];
      let before = 0;
      for (let i = 0; i < 10; i++) {
        small.push(await timed(() => client.callTool({ name: 'slow', arguments: { ms: 0 } })));
        if (!hugeDone) before++;
      }
      const hugeMs = await timed(() => huge);
      return { small: stats(small), finished_before_huge: before, huge_wait_ms: round(hugeMs) };
    };
    const huge = { direct: await during(direct), proxied: await during(proxied) };
    // Under --max-result-mb a result is read, encoded and counted on the proxy's one thread: calls wait.
    const read = { direct: await during(direct, 2), proxied: await during(proxied, 2) };
    ctx.log(`  20 MB: small calls direct ${huge.direct.small.median_ms} ms, proxied ${huge.proxied.small.median_ms} ms`);
    await Promise.all([direct.close(), proxied.close()]);

    const cell = (t: Timing) => `${t.median_ms} / ${t.p99_ms}`;
    const lines = [
      `devboy proxy: time per tools/call, direct to the corpus MCP server vs through devboy proxy --no-dedup (format auto, o200k_base), interleaved, same run; load average ${load} at the start`,
      '',
      `${'case'.padEnd(70)} ${'direct ms (median / p99)'.padStart(26)} ${'proxied ms'.padStart(18)} ${'ratio'.padStart(7)} ${'added ms'.padStart(9)}`,
      ...rows.map(
        (r) =>
          `${r.case.padEnd(70)} ${cell(r.direct).padStart(26)} ${cell(r.proxied).padStart(18)} ${`x${r.ratio}`.padStart(7)} ${String(r.added_ms).padStart(9)}`,
      ),
      '',
      `while a 20 MB result travels (passed on unread: over --max-result-mb 4), 10 small calls one after another:`,
      `  direct:  median ${cell(huge.direct.small)} ms, ${huge.direct.finished_before_huge}/10 finished before the 20 MB result`,
      `  proxied: median ${cell(huge.proxied.small)} ms, ${huge.proxied.finished_before_huge}/10 finished before the 20 MB result`,
      `while a 2 MB result travels (read, re-encoded and counted by the proxy), 10 small calls one after another:`,
      `  direct:  median ${cell(read.direct.small)} ms, the 2 MB result took ${read.direct.huge_wait_ms} ms more after them`,
      `  proxied: median ${cell(read.proxied.small)} ms, the 2 MB result took ${read.proxied.huge_wait_ms} ms more after them`,
    ];
    return { text: lines.join('\n'), data: { load_average: Number(load), rows, huge, read } };
  },
};

function round(n: number): number {
  return Math.round(n * 100) / 100;
}
