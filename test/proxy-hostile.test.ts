import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { parseLedger, type LedgerCall } from '../src/proxy/ledger.js';
import { CORPUS_SERVER, FAILING_SERVER, connectThroughProxy, sessionInProcess } from './helpers/mcp-proxy.js';

type Text = { type: string; text: string };
const texts = (r: object) => (r as { content: Text[] }).content.filter((b) => b.type === 'text').map((b) => b.text);

/** The error a call ended with (the test fails if it ended with a result). */
async function callError(p: Promise<unknown>): Promise<McpError> {
  try {
    await p;
  } catch (err) {
    assert.ok(err instanceof McpError, String(err));
    return err;
  }
  assert.fail('the call returned a result');
}

const rows = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ id: i + 1, title: `row ${i + 1}`, state: i % 3 === 0 ? 'closed' : 'open', labels: ['bug'] }));
const pretty = (v: unknown) => JSON.stringify(v, null, 2);

describe('devboy proxy and a hostile upstream', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'devboy-proxy-hostile-'));
  after(() => rmSync(tmp, { recursive: true, force: true }));

  // Nothing asserted here depends on the tokenizer: the upstream fails, or a result is kept, before a
  // count decides anything. heuristic's costs no load (o200k_base's ranks: a quarter of the start-up).
  const proxy = (...args: string[]) => connectThroughProxy(['--tokenizer', 'heuristic', ...args], CORPUS_SERVER);
  // The faults, each ending its session, from an upstream that starts in a tenth of the corpus server's time.
  const failing = (...args: string[]) => connectThroughProxy(['--tokenizer', 'heuristic', ...args], FAILING_SERVER);
  // A fault whose claim is the error the agent gets, runProxy's exit status and its note: in this
  // process. The frozen upstream below runs the proxy as a program: that its process then exits, with
  // status 1 and the lines on stderr, is the claim there.
  const failingInProcess = <T>(calls: (client: Client) => Promise<T>) =>
    sessionInProcess(FAILING_SERVER, { tokenizer: 'heuristic' }, calls);

  it('dies mid-call: the pending call gets a JSON-RPC error naming the exit code; the proxy ends with status 1', async () => {
    const { got: err, outcome } = await failingInProcess((client) => callError(client.callTool({ name: 'die' })));
    assert.equal(err.code, -32000);
    assert.match(err.message, /the upstream failed: exited with code 3/);
    assert.equal(outcome.exitCode, 1);
    assert.deepEqual(outcome.notes, ['upstream failed: exited with code 3']);
  });

  // --timeout 1, the least it takes: the waits below are a second each, and an answer (say, ping) has a second too.
  // One session for both waits: a call that hangs leaves the session going (the next call is answered),
  // and only an upstream that then stops answering everything ends it.
  it('never answers one call: a timeout error within --timeout, and the session goes on (ping answered); then stops answering anything: the proxy gives up with status 1', async () => {
    const run = await failing('--timeout', '1');
    const hung = await callError(run.client.callTool({ name: 'hang' }));
    assert.equal(hung.code, -32001);
    assert.match(hung.message, /did not answer tools\/call within 1 s/);
    const ok = await run.client.callTool({ name: 'say', arguments: { text: 'still here' } });
    assert.deepEqual(texts(ok), ['still here']);
    const frozen = await callError(run.client.callTool({ name: 'freeze' }));
    assert.equal(frozen.code, -32001);
    const end = await run.exited;
    assert.equal(end.code, 1);
    // The hang is noted as a timeout, and the one failure the proxy reports comes after it, from the freeze.
    const lines = end.stderr.split('\n');
    const timedOut = lines.indexOf('devboy proxy: tools/call hang: no answer within 1 s; the agent got a timeout error');
    const failed = lines.filter((l) => l.startsWith('devboy proxy: upstream failed'));
    assert.deepEqual(failed, ['devboy proxy: upstream failed: it answers nothing, not even ping, for 1 s after a request timed out']);
    assert.ok(timedOut >= 0 && timedOut < lines.indexOf(failed[0]!), end.stderr);
  });

  it('junk on stdout: the pending call gets an error at once, the proxy ends with status 1 and the reason', async () => {
    const { got: err, outcome } = await failingInProcess((client) => callError(client.callTool({ name: 'junk' })));
    assert.equal(err.code, -32000);
    assert.match(err.message, /not an MCP message/);
    assert.equal(outcome.exitCode, 1);
    assert.equal(outcome.notes.length, 1, outcome.notes.join('\n'));
    assert.match(outcome.notes[0]!, /^upstream failed: it wrote to stdout something that is not an MCP message \(.+\)$/);
  });

  describe('one session of results the proxy must not touch (each test reads its part of it)', () => {
    const log = join(tmp, 'untouched.jsonl');
    // 12 MB: over the SDK's default 10 MB message limit, which the proxy must lift, at 60% of 20 MB's cost.
    const MB = 12;
    const odd: Record<string, string> = {
      deep: `${'['.repeat(600)}1${']'.repeat(600)}`,
      duplicate_keys: `{\n  "id": 1,\n  "id": 2,\n  "items": ${pretty(rows(30))}\n}`,
      big_number: `{\n  "id": 12345678901234567890,\n  "items": ${pretty(rows(30))}\n}`,
      lone_surrogate: `{\n  "title": "broken \\ud800 text",\n  "items": ${pretty(rows(30))}\n}`,
    };
    let got: { huge: object; small: object; odd: Record<string, string | undefined>; fail: object; say: object };
    let end: { code: number | null; stderr: string };
    let calls: LedgerCall[];
    before(async () => {
      const run = await proxy('--log', log);
      const [huge, small] = await Promise.all([
        run.client.callTool({ name: 'huge', arguments: { mb: MB } }),
        run.client.callTool({ name: 'slow', arguments: { ms: 0 } }),
      ]);
      const oddGot: Record<string, string | undefined> = {};
      for (const tool of Object.keys(odd)) oddGot[tool] = texts(await run.client.callTool({ name: tool })).at(-1);
      const fail = await run.client.callTool({ name: 'fail' });
      const say = await run.client.callTool({ name: 'say', arguments: { text: 'hello [world]' } });
      got = { huge, small, odd: oddGot, fail, say };
      end = await run.end();
      calls = parseLedger(readFileSync(log, 'utf8'), log).calls;
    });

    it('the agent ends the session: the proxy exits 0', () => {
      assert.equal(end.code, 0, end.stderr);
    });

    it(`a ${MB} MB result passes through unchanged and uncounted, noted in the log; a small call is not held up behind it`, () => {
      const text = texts(got.huge)[0]!;
      assert.ok(text.length > MB * 1024 * 1024, String(text.length));
      const one = pretty(rows(1)[0]).length + 4;
      const expected = pretty(rows(Math.ceil((MB * 1024 * 1024) / one)));
      assert.equal(createHash('sha256').update(text).digest('hex'), createHash('sha256').update(expected).digest('hex'));
      assert.ok(texts(got.small).length >= 1);
      const record = calls.find((c) => c.tool === 'huge')!;
      assert.equal(record.outcome, 'kept');
      assert.equal(record.why, 'over --max-result-mb');
      assert.match(record.note ?? '', /^not counted: \d+ bytes passed through unchanged$/);
    });

    it('600-level nesting, duplicate keys, a number a double cannot hold, a lone surrogate: passed through byte for byte, never verified', () => {
      for (const [tool, text] of Object.entries(odd)) assert.equal(got.odd[tool], text, tool);
      const why = Object.fromEntries(calls.map((c) => [c.tool, c]));
      for (const tool of Object.keys(odd)) {
        assert.equal(why[tool]!.outcome, 'kept', tool);
        assert.equal(why[tool]!.verified, false, tool);
      }
      assert.match(why.deep!.why!, /^not exact JSON: .*nest/i);
      assert.match(why.duplicate_keys!.why!, /^not exact JSON: .*duplicate key/i);
      assert.match(why.big_number!.why!, /^not exact JSON: .*12345678901234567890/);
      assert.equal(why.lone_surrogate!.why, 'lone surrogate \\ud800 at $.title');
    });

    it('an isError result and plain text pass through unchanged', () => {
      assert.equal((got.fail as { isError?: boolean }).isError, true);
      assert.deepEqual(texts(got.fail), [pretty({ error: 'rate limited', retry_after: 30, items: rows(20) })]);
      assert.deepEqual(texts(got.say), ['hello [world]']);
    });
  });

  it('an upstream that cannot be started: exit 2 with one line', async () => {
    const { runCli } = await import('./helpers/cli.js');
    const r = await runCli(['proxy', '--', join(tmp, 'no-such-server')]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /^devboy proxy: cannot start the upstream .*no-such-server: .*ENOENT.*\n$/);
    const none = await runCli(['proxy']);
    assert.equal(none.code, 2);
    assert.equal(none.stderr, 'devboy proxy: no upstream: give its command after --, e.g. devboy proxy -- npx -y SERVER\n');
  });
});
