import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { parseBenchmarkResult } from '../src/benchmark/read-result.js';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { loadFormat } from '../src/formats/registry.js';
import { roundFraction } from '../src/metadata/format-metadata.js';
import { readResponse } from '../src/providers/response.js';
import { itemsAtLevel } from '../src/trim/levels.js';
import { isFormatName } from '../src/formats/registry.js';
import { jsonEqual } from '../src/json/equal.js';
import { parseJson } from '../src/json/parse.js';
import { parseLedger, type LedgerCall } from '../src/proxy/ledger.js';
import { loadTokenizer } from '../src/tokens/registry.js';
import { refLine } from '../src/transcript/canonical.js';
import { runCli } from './helpers/cli.js';
import { benchmarkWithLedger, CORPUS_SERVER, connectInProcess, connectThroughProxy, sessionInProcess } from './helpers/mcp-proxy.js';
import { corpusDir } from './helpers/paths.js';
import { FULL_SUITE } from './helpers/sampling.js';
import { corpusBodies } from './mcp/corpus-server.js';

type Text = { type: string; text: string };
const texts = (r: object) => (r as { content: Text[] }).content.filter((b) => b.type === 'text').map((b) => b.text);

// Read once for the file: every test below picks its bodies from it.
const bodies = corpusBodies(corpusDir());
// The session column needs no more than one format measured.
const ONE_FORMAT = ['--formats', 'stc'];

describe('devboy proxy in front of a corpus MCP server (SDK client over stdio)', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'devboy-proxy-'));
  const log = join(tmp, 'calls.jsonl');
  const names = [...bodies.keys()];
  // Every twelfth body: a spread of providers, shapes and sizes at a test's cost (226 KB, the largest
  // 93 KB; longer lists are paged and lowered below). DEVBOY_TEST_CORPUS=full sends another twelfth
  // and the largest body (900 KB), as the fast suite did; not every body: some are the same value
  // under two URLs, and a repeat is a dedup reference, which the tests below look at one at a time.
  const largest = () => names.reduce((a, b) => (JSON.stringify(bodies.get(a)).length >= JSON.stringify(bodies.get(b)).length ? a : b));
  const sample = FULL_SUITE ? [...new Set([...names.filter((_, i) => i % 12 === 0), largest()])] : names.filter((_, i) => i % 12 === 8);
  const sent: { name: string; upstream: string; received: string[] }[] = [];
  let pages: string[][];
  let cancelled: { settled: 'resolved' | 'rejected'; next: string[] };
  let dedup: { first: (typeof sent)[number]; id: string; again: string[]; fetched: string[]; unknownIsError: unknown } | undefined;
  let end: { code: number | null; stderr: string };
  let calls: LedgerCall[];
  after(() => rmSync(tmp, { recursive: true, force: true }));

  // The whole session, then its ledger, read once the proxy has exited: the proxy appends each line
  // without waiting, so a ledger read mid-session can miss the last lines (it did once, under load).
  before(async () => {
    // --skip-tools as an agent's configuration gives it: comma-separated, a name and a glob (s?y: say,
    // whose plain text is kept either way; only the reason in the ledger tells the rule applied).
    const run = await connectThroughProxy(['--log', log, '--skip-tools', 'no_such_tool,s?y'], CORPUS_SERVER);
    for (const name of sample) {
      const r = await run.client.callTool({ name: 'get_body', arguments: { name } });
      sent.push({ name, upstream: JSON.stringify(bodies.get(name), null, 2), received: texts(r) });
    }
    pages = [];
    let cursor: string | undefined;
    do {
      const page = await run.client.listTools(cursor === undefined ? {} : { cursor });
      pages.push(page.tools.map((t) => t.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    const abort = new AbortController();
    const call = run.client.callTool({ name: 'hang' }, undefined, { signal: abort.signal });
    abort.abort('the agent changed its mind');
    const settled = await call.then(
      () => 'resolved' as const,
      () => 'rejected' as const,
    );
    cancelled = { settled, next: texts(await run.client.callTool({ name: 'say', arguments: { text: 'next' } })) };
    const first = sent.find((s) => s.received.length >= 2 && s.received.at(-2)!.startsWith('<<<SHADOW:'));
    const id = first && /<<<SHADOW:(shadow_[0-9a-f]{12})>>>/.exec(first.received.at(-2)!)?.[1];
    if (first && id)
      dedup = {
        first,
        id,
        again: texts(await run.client.callTool({ name: 'get_body', arguments: { name: first.name } })),
        fetched: texts(await run.client.callTool({ name: 'devboy_result', arguments: { id } })),
        unknownIsError: (await run.client.callTool({ name: 'devboy_result', arguments: { id: 'shadow_000000000000' } })).isError,
      };
    end = await run.end();
    calls = parseLedger(readFileSync(log, 'utf8'), log).calls;
  });

  it("lists the upstream's tools page by page (cursors passed through), the added devboy_result on the last page only", () => {
    assert.ok(pages.length >= 3, String(pages.length));
    const listed = pages.flat();
    assert.ok(listed.includes('get_body') && listed.includes('list_bodies'), listed.join());
    assert.deepEqual(
      listed.filter((n) => n === 'devboy_result'),
      ['devboy_result'],
    );
    assert.equal(pages.at(-1)!.at(-1), 'devboy_result');
  });

  it('a call the agent cancels is passed on as cancelled and logged as such; the session goes on', () => {
    assert.equal(cancelled.settled, 'rejected');
    assert.deepEqual(cancelled.next, ['next']);
    const record = calls.find((c) => c.tool === 'hang')!;
    assert.equal(record.outcome, 'error');
    assert.equal(record.why, 'cancelled by the agent');
  });

  it('--skip-tools from the command line: each comma-separated name or glob is a rule, and the tool it matches is kept exact by it', () => {
    const say = calls.find((c) => c.tool === 'say')!;
    assert.equal(say.outcome, 'kept');
    assert.equal(say.why, 'kept exact by --skip-tools');
  });

  it('every re-encoded result decodes to exactly what the upstream sent; the rest is byte for byte', async () => {
    let encoded = 0;
    for (const [i, s] of sent.entries()) {
      const record = calls[i]!;
      const body = s.received.at(-1)!;
      if (record.outcome === 'encoded') {
        assert.ok(record.format && isFormatName(record.format), `${s.name}: format ${record.format}`);
        const decoded = (await loadFormat(record.format)).decode(body);
        assert.ok(jsonEqual(decoded, parseJson(s.upstream)), `${s.name}: ${record.format} does not decode to the upstream's value`);
        assert.equal(record.verified, true);
        encoded++;
      } else {
        assert.equal(body, s.upstream, `${s.name}: kept (${record.why}) but not byte for byte`);
      }
    }
    assert.ok(encoded >= sample.length / 2, `only ${encoded} of ${sample.length} re-encoded`);
  });

  it('fewer o200k_base tokens over the sample, counted here from what the client received', async () => {
    const o200k = await loadTokenizer('o200k_base');
    const upstream = sent.reduce((n, s) => n + o200k.count(s.upstream), 0);
    const received = sent.reduce((n, s) => n + s.received.reduce((m, t) => m + o200k.count(t), 0), 0);
    assert.ok(received < upstream * 0.97, `received ${received} vs upstream ${upstream}`);
    const ledgerSum = (pick: (c: LedgerCall) => number) => calls.slice(0, sent.length).reduce((n, c) => n + pick(c), 0);
    assert.equal(
      ledgerSum((c) => c.tokens_before.o200k_base!),
      upstream,
    );
    assert.equal(
      ledgerSum((c) => c.tokens_after.o200k_base!),
      received,
    );
  });

  it('the same result again is a dedup reference that devboy_result resolves to the body first sent', () => {
    assert.ok(dedup, 'no result was sent with an id line');
    assert.deepEqual(dedup.again, [refLine(dedup.id)]);
    assert.deepEqual(dedup.fetched, [dedup.first.received.at(-1)]);
    assert.equal(dedup.unknownIsError, true);
  });

  it('the same input gives the same bytes: a second proxy sends what the first sent', async () => {
    // The smallest body of each format the first proxy chose: whether an encoding, and the choice of
    // it, depend on the input alone shows on any body; a large one only costs time, twice.
    const smallest = new Map<string | null, (typeof sent)[number]>();
    for (const [i, s] of sent.entries()) {
      const had = smallest.get(calls[i]!.format);
      if (!had || s.upstream.length < had.upstream.length) smallest.set(calls[i]!.format, s);
    }
    assert.ok(smallest.size >= 3, `the sample is sent in ${[...smallest.keys()].join(', ')} only`);
    // A second proxy in this process: its output is what is compared, and the first ran as a program.
    const other = await connectInProcess(CORPUS_SERVER, { dedup: false });
    // Every call first, the session ended, then the asserts: a failed assert must not leave the proxy
    // (in this process) and its upstream running, which would keep the test file from ending.
    const again: string[] = [];
    try {
      for (const s of smallest.values())
        again.push(texts(await other.client.callTool({ name: 'get_body', arguments: { name: s.name } })).at(-1)!);
    } finally {
      assert.equal((await other.end()).exitCode, 0);
    }
    // Without dedup there is no id line; the explainer comes with the first result in each format.
    for (const [i, s] of [...smallest.values()].entries()) assert.equal(again[i], s.received.at(-1), s.name);
  });

  it('on exit: status 0 and a summary that devboy session reads back from the ledger, figure for figure', async () => {
    const ended = end;
    assert.equal(ended.code, 0, ended.stderr);
    const session = await runCli(['session', log]);
    assert.equal(session.code, 0, session.stderr);
    const summary = session.stdout.trimEnd();
    assert.match(summary, /^devboy proxy: \d+ tool calls through node;/);
    assert.ok(ended.stderr.includes(summary), `proxy stderr:\n${ended.stderr}\nsession:\n${summary}`);
    const json = JSON.parse((await runCli(['session', log, '--json'])).stdout) as { refs: number; totals: { received_tokens: number }[] };
    assert.equal(json.refs, 1);
    const bench = await benchmarkWithLedger(log, ONE_FORMAT);
    assert.equal(bench.code, 0, bench.stderr);
    const doc = JSON.parse(bench.stdout) as BenchmarkResult;
    const t = (
      json as unknown as {
        totals: { tokenizer: string; dedup: number; encoder: number; combined: number; measured: number; received_tokens: number }[];
      }
    ).totals[0]!;
    assert.deepEqual(doc.session!.results, [
      {
        format: 'proxy',
        tokenizer: t.tokenizer,
        dedup: roundFraction(t.dedup),
        encoder: roundFraction(t.encoder),
        combined: roundFraction(t.combined),
        measured: roundFraction(t.measured),
        baseline_tokens: (json as unknown as { totals: { baseline_tokens: number }[] }).totals[0]!.baseline_tokens,
        received_tokens: t.received_tokens,
      },
    ]);
    assert.equal(doc.session!.baseline, 'upstream');
    // A saved result with a ledger's session reads back as a result (compare, merge, --baseline).
    assert.deepEqual(parseBenchmarkResult(bench.stdout, 'ledger-run.json').session, doc.session);
    for (const row of doc.rows) if (row.tokenizer === 'o200k_base') assert.equal(row.savings.dedup, roundFraction(t.dedup));
    assert.equal(
      json.totals[0]!.received_tokens,
      calls.reduce((n, c) => n + c.tokens_after.o200k_base!, 0),
    );
  });
});

describe('devboy proxy --budget: a long list in pages by the chunk planner, each page fetched by id', () => {
  it('page 1 carries the chunk index; devboy_result hands back every page and the whole; the pages decode to the whole list', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'devboy-proxy-pages-'));
    const log = join(tmp, 'calls.jsonl');
    // 16 GitHub issues, 86 KB, one of them too large for a page with the index: every kind of page at
    // a fifth of the cost of betamax's 100 issues.
    const name = 'github/betamaxpy__betamax/001_GET_repos_betamaxpy_betamax_issues_direction_asc_per_page_100.json';
    const body = bodies.get(name)!;
    // In this process: the claim is about what the proxy sends and logs (the main session above ran it as a program).
    const { got, outcome } = await sessionInProcess(CORPUS_SERVER, { budget: 2000, log }, async (client) => {
      const first = texts(await client.callTool({ name: 'get_body', arguments: { name } }));
      const id = /<<<SHADOW:(shadow_[0-9a-f]{12})>>>/.exec(first.join('\n'))![1]!;
      const fetch = async (args: Record<string, unknown>) =>
        texts(await client.callTool({ name: 'devboy_result', arguments: { id, ...args } }));
      const count = Number(/in (\d+) chunks/.exec(first.at(-1)!)![1]);
      const pages: string[] = [];
      for (let n = 1; n <= count; n++) pages.push((await fetch({ page: n }))[0]!);
      const whole = (await fetch({}))[0]!;
      const again = texts(await client.callTool({ name: 'get_body', arguments: { name } }));
      const outOfRange = await client.callTool({ name: 'devboy_result', arguments: { id, page: count + 1 } });
      return { first, id, count, pages, whole, again, outOfRange };
    });
    const { first, id, count, pages, whole, again, outOfRange } = got;
    assert.equal(outcome.exitCode, 0);
    const r = parseLedger(readFileSync(log, 'utf8'), log).calls[0]!;
    rmSync(tmp, { recursive: true, force: true });

    assert.equal(r.outcome, 'encoded');
    assert.deepEqual({ id: r.pages!.id, count: r.pages!.count, member: r.pages!.member }, { id, count, member: null });
    assert.ok(count >= 2);
    assert.ok(r.pages!.over_budget.length > 0, 'an issue over the budget alone, or the test would not see its label');
    assert.equal(pages[0], first.at(-1), 'page 1 is what the call returned');
    assert.match(pages[0]!, new RegExp(`\\[chunks\\] \\d+/${(body as unknown[]).length} items in ${count} chunks`));
    assert.ok(pages[0]!.includes(`Call devboy_result with {"id": "${id}", "page": N}`));
    const format = await loadFormat(r.format!);
    const o200k = await loadTokenizer('o200k_base');
    const items = pages.flatMap((p) => {
      const over = r.pages!.over_budget.find((o) => pages[o.page - 1] === p);
      if (o200k.count(p) > 2000) {
        assert.ok(over && /\(offset=\d+, limit=1\) << this response/.test(p), `page over budget: ${o200k.count(p)}`);
        assert.equal(over.tokens, o200k.count(p));
        assert.match(p, /\n\[devboy proxy: page \d+ is over the 2,000-token budget: it holds one item/);
      } else assert.equal(over, undefined);
      return format.decode(p.slice(0, p.lastIndexOf('\n\n[chunks] '))) as unknown[];
    });
    assert.ok(jsonEqual(items, body), 'the pages together are the list');
    assert.ok(jsonEqual(format.decode(whole), body), 'the whole result decodes to the list');
    assert.deepEqual(again, [refLine(id)]);
    assert.equal(outOfRange.isError, true);
  });
});

describe('devboy proxy --level: known provider lists lowered by choice, labelled, the whole result one call away', () => {
  it("a GitHub issue list at minimal detail decodes to devboy format's minimal items; devboy_result gives back the upstream text", async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'devboy-proxy-level-'));
    const log = join(tmp, 'calls.jsonl');
    // The smaller of betamax's two pages of issues (50 issues, 183 KB): the same work as the 100 of page 1.
    const size = (n: string) => JSON.stringify(bodies.get(n)).length;
    const name = [...bodies.keys()].filter((n) => /^github\/.*_issues_state_all/.test(n)).sort((a, b) => size(a) - size(b))[0]!;
    const upstream = JSON.stringify(bodies.get(name), null, 2);
    // What is asserted is the lowering, its label and the whole result: no token count decides them,
    // and heuristic costs no load. In this process: the claim is about what the proxy sends and logs.
    const { got: session, outcome } = await sessionInProcess(
      CORPUS_SERVER,
      { level: 'minimal', tokenizer: 'heuristic', log },
      async (client) => {
        const got = texts(await client.callTool({ name: 'get_body', arguments: { name } }));
        const label = got.find((t) => t.startsWith('[devboy proxy: '))!;
        const id = /"id": "(shadow_[0-9a-f]{12})"/.exec(label)![1]!;
        const whole = texts(await client.callTool({ name: 'devboy_result', arguments: { id } }));
        const plain = texts(await client.callTool({ name: 'say', arguments: { text: 'not a list' } }));
        return { got, label, whole, plain };
      },
    );
    const { got, label, whole, plain } = session;
    assert.equal(outcome.exitCode, 0);
    const r = parseLedger(readFileSync(log, 'utf8'), log).calls[0]!;
    rmSync(tmp, { recursive: true, force: true });
    assert.match(
      label,
      /^\[devboy proxy: \d+ .+ at minimal detail \(fields left out by choice\).*; the upstream's whole result: devboy_result \{"id": "shadow_/,
    );
    assert.equal(r.level, 'minimal');
    assert.equal(r.outcome, 'lowered');
    assert.match(
      r.note!,
      /^minimal detail by --level: lossy by choice(, \d+ pull requests left out)?; the text decodes to the lowered items \(checked\)$/,
    );
    const want = itemsAtLevel(readResponse(parseJson(upstream), name), 'minimal');
    assert.ok(jsonEqual((await loadFormat(r.format!)).decode(got.at(-1)!), want));
    assert.deepEqual(whole, [upstream]);
    assert.deepEqual(plain, ['not a list']);
  });
});
