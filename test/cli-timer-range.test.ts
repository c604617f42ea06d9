import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UsageError } from '../src/errors.js';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { MAX_TIMER_MS, MAX_TIMER_SECONDS } from '../src/http/limits.js';
import { createTransport } from '../src/http/transport.js';
import { runCli, type CliResult } from './helpers/cli.js';
import { GITHUB_TOKEN, startGithubLive } from './helpers/live-apis.js';

// Issue 21 item 12: `--timeout 2147484` (seconds) is past the 2^31 - 1 ms a Node timer can hold:
// Node warned (TimeoutOverflowWarning), set the timer to 1 ms, and every request failed at once
// ("did not answer within 35791 min"). The flags refuse what the timer cannot hold, in their own check.

const LIVE = ['--provider', 'github', '--owner', 'acme', '--repo', 'widgets', '--host', 'http://127.0.0.1:9'];
const FIRST_PAST = String(Math.floor(MAX_TIMER_MS / 1000) + 1);

describe('seconds flags past the timer range', () => {
  it('the longest timer is 2^31 - 1 ms', () => {
    assert.equal(MAX_TIMER_MS, 2 ** 31 - 1);
    assert.equal(FIRST_PAST, '2147484');
  });

  const cases: [string, string[]][] = [
    ['benchmark --timeout', ['benchmark', ...LIVE, '--timeout', FIRST_PAST]],
    ['benchmark --max-wait', ['benchmark', ...LIVE, '--max-wait', FIRST_PAST]],
    ['record --timeout', ['record', ...LIVE, '--out-dir', '/nonexistent/devboy', '--timeout', FIRST_PAST]],
    ['record --max-wait', ['record', ...LIVE, '--out-dir', '/nonexistent/devboy', '--max-wait', FIRST_PAST]],
    ['proxy --timeout', ['proxy', '--timeout', FIRST_PAST, '--', 'node', '-e', '']],
    ['proxy --start-timeout', ['proxy', '--start-timeout', FIRST_PAST, '--', 'node', '-e', '']],
  ];
  for (const [name, args] of cases) {
    it(`${name} ${FIRST_PAST}: exit 2, one line naming the flag and its largest value, before any request`, async () => {
      const flag = name.split(' ')[1]!;
      const r = await runCli(args);
      assert.equal(r.code, 2, r.stderr);
      assert.equal(r.stdout, '');
      assert.equal(r.stderr.trimEnd().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`${flag}.*2147483\\b`));
      assert.doesNotMatch(r.stderr, /TimeoutOverflowWarning|did not answer|cannot reach/);
    });
  }

  it(`--timeout ${MAX_TIMER_SECONDS} and --max-wait ${MAX_TIMER_SECONDS}, the largest: requests are answered, no timer overflows`, async () => {
    const live = await startGithubLive();
    try {
      const args = ['benchmark', '--provider', 'github', '--owner', 'acme', '--repo', 'widgets', '--host', live.url, '--limit', '3'];
      const flags = ['--live-details', '0', '--timeout', String(MAX_TIMER_SECONDS), '--max-wait', String(MAX_TIMER_SECONDS)];
      // In-process: Node emits TimeoutOverflowWarning as a 'warning' event of the process that set
      // the timer (what it prints on stderr comes from that event), so the listener sees it here as
      // a process of its own would print it. The heuristic tokenizer: o200k_base's load, and no timer.
      const measure = ['--runs', '1', '--levels', 'minimal', '--formats', 'toon', '--tokenizers', 'heuristic', '--json'];
      const warnings: string[] = [];
      const onWarning = (w: Error) => warnings.push(`${w.name}: ${w.message}`);
      process.on('warning', onWarning);
      let r: CliResult;
      try {
        r = await runCli([...args, ...flags, ...measure], { env: { GITHUB_TOKEN: GITHUB_TOKEN, GITHUB_API_URL: '' } });
        // The event is emitted on a later tick than the timer that caused it.
        await new Promise((resolve) => setImmediate(resolve));
      } finally {
        process.off('warning', onWarning);
      }
      assert.equal(r.code, 0, r.stderr);
      assert.deepEqual(
        warnings.filter((w) => w.startsWith('TimeoutOverflowWarning')),
        [],
      );
      assert.ok((JSON.parse(r.stdout) as BenchmarkResult).datasets.length > 0);
    } finally {
      await live.close();
    }
  });

  it('the library refuses such a timeout or wait too, rather than letting Node cut it to 1 ms', () => {
    assert.throws(() => createTransport('http://127.0.0.1:9', { timeoutMs: MAX_TIMER_MS + 1 }), UsageError);
    assert.throws(() => createTransport('http://127.0.0.1:9', { maxWaitMs: MAX_TIMER_MS + 1 }), UsageError);
    assert.throws(() => createTransport('http://127.0.0.1:9', { timeoutMs: 0 }), UsageError);
    assert.ok(createTransport('http://127.0.0.1:9', { timeoutMs: MAX_TIMER_MS, maxWaitMs: MAX_TIMER_MS }));
  });
});
