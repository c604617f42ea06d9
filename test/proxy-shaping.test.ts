import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { loadExplainers } from '../src/formats/explainers.js';
import { FORMAT_INFO } from '../src/formats/info.js';
import { loadFormat, loadFormats } from '../src/formats/registry.js';
import type { FormatName } from '../src/formats/types.js';
import { jsonEqual } from '../src/json/equal.js';
import { parseJson } from '../src/json/parse.js';
import type { JsonObject, JsonValue } from '../src/json/types.js';
import type { LedgerCall, LedgerHeader } from '../src/proxy/ledger.js';
import type { ProxyLevel } from '../src/proxy/level.js';
import { proxyFormats } from '../src/proxy/rewrite-text.js';
import { ResultShaper, type Shaped } from '../src/proxy/shape-result.js';
import { proxySummaryText, summarizeLedger } from '../src/proxy/summary.js';
import { readResponse } from '../src/providers/response.js';
import { roundFraction } from '../src/metadata/format-metadata.js';
import { loadTokenizer } from '../src/tokens/registry.js';
import type { Tokenizer } from '../src/tokens/types.js';
import { itemsAtLevel } from '../src/trim/levels.js';
import { DEFAULT_DEDUP } from '../src/transcript/types.js';
import { runCli } from './helpers/cli.js';
import { rememberingTokenizer } from './helpers/remembering-tokenizer.js';
import { benchmarkWithLedger, FAILING_SERVER, sessionInProcess } from './helpers/mcp-proxy.js';
import { corpusDir } from './helpers/paths.js';
import { corpusBodies } from './mcp/corpus-server.js';

const BETAMAX = 'github/betamaxpy__betamax/003_GET_repos_betamaxpy_betamax_issues_state_all_per_page_100.json';
const SEARCH = 'github/_search/000_GET_search_issues_q_github3_label_3ABug_per_page_100.json';
const JIRA_SEARCH = 'jira/ALOY/000_GET_rest_api_2_search_jql_project_3DALOY_20ORDER_20BY_20key_20ASC_startAt_0_maxResults_50.json';
const PR_FILES = 'github/rust-lang__triagebot/005_GET_repos_rust_lang_triagebot_pulls_2471_files_per_page_100.json';
const JIRA_ISSUE = 'jira/ALOY/003_GET_rest_api_2_issue_ALOY_1009.json';

const bodies = corpusBodies(corpusDir());
const body = (name: string) => bodies.get(name) as JsonValue;
const pretty = (name: string) => JSON.stringify(body(name), null, 2);
const texts = (r: object) =>
  ((r as { content?: unknown }).content as { type: string; text: string }[]).filter((b) => b.type === 'text').map((b) => b.text);

// o200k_base for the whole file, its counts remembered: the shapers below count the same large texts
// (betamax 003 and the GitHub search, 150,000 tokens each) in several tests.
let o200kShared: Promise<Tokenizer> | undefined;
const o200kRemembering = () => (o200kShared ??= loadTokenizer('o200k_base').then(rememberingTokenizer));

/** The shaper `devboy proxy` runs, with its real formats, tokenizer and explainers. */
async function shaper(o: { format?: FormatName | 'auto'; budget?: number; level?: ProxyLevel }) {
  const formats = await loadFormats(proxyFormats(o.format ?? 'auto'));
  const tokenizer = await o200kRemembering();
  const explainers = await loadExplainers(formats.map((f) => f.name));
  return new ResultShaper({
    formats,
    tokenizer,
    counters: [tokenizer],
    maxResultBytes: 4 * 1024 * 1024,
    budget: o.budget ?? null,
    level: o.level ?? null,
    dedup: DEFAULT_DEDUP,
    explainers: new Map(explainers.map((e) => [e.format, e.text])),
    toolRule: () => ({ rewrite: true }),
    addedTool: 'devboy_result',
    storeChars: 64 * 1024 * 1024,
  });
}

const header = (over: Partial<LedgerHeader> = {}): LedgerHeader => ({
  devboy_proxy_ledger: 1,
  devboy: '0',
  upstream: 'node',
  format: 'auto',
  tokenizer: 'o200k_base',
  tokenizers: ['o200k_base'],
  baseline: 'upstream',
  dedup: { min_bytes: 512, lru_size: 64 },
  budget: null,
  level: null,
  explainer: true,
  ...over,
});

/** Every page of a paged call, fetched through the added tool as the model would. */
function fetchPages(s: ResultShaper, record: LedgerCall): string[] {
  assert.ok(record.pages, `not paged: ${record.note ?? record.why}`);
  const pages: string[] = [];
  for (let n = 1; n <= record.pages.count; n++) {
    const got = s.fetch({ id: record.pages.id, page: n });
    assert.notEqual(got.result.isError, true, `page ${n}`);
    pages.push(texts(got.result)[0]!);
  }
  return pages;
}

/** A page's content: the text before its chunk index. */
const contentOf = (page: string) => page.slice(0, page.lastIndexOf('\n\n[chunks] '));

/** Each page is within the budget, or is listed in the ledger and labelled as over it; nothing else. */
async function assertWithinBudget(pages: readonly string[], record: LedgerCall, budget: number) {
  const o200k = await o200kRemembering();
  const over = pages.flatMap((p, i) => (o200k.count(p) > budget ? [{ page: i + 1, tokens: o200k.count(p) }] : []));
  assert.deepEqual(
    record.pages!.over_budget.map((o) => ({ page: o.page, tokens: o.tokens })),
    over,
    'the ledger lists exactly the pages over the budget, with their tokens',
  );
  for (const o of record.pages!.over_budget) {
    const page = pages[o.page - 1]!;
    assert.equal(o.limit, 1, `page ${o.page} is over the budget with ${o.limit} items: only a lone item may be`);
    assert.match(page, new RegExp(`\\[devboy proxy: page ${o.page} is over the ${budget.toLocaleString('en-US')}-token budget: `));
    assert.match(page, /\(offset=\d+, limit=1\) << this response/);
  }
}

describe('proxy --budget: a list inside an object is paged; what cannot be paged says why', () => {
  it('a Jira search envelope at --budget 3000 --format toon: pages of its issues within the budget, the envelope on page 1, together the whole result', async () => {
    const s = await shaper({ format: 'toon', budget: 3000 });
    const { result, record } = s.shape('get_body', { name: JIRA_SEARCH }, { content: [{ type: 'text', text: pretty(JIRA_SEARCH) }] });
    assert.equal(record.outcome, 'encoded');
    assert.ok(record.pages, `not paged: ${record.note}`);
    assert.equal(record.pages.member, 'issues');
    assert.ok(record.pages.count >= 15, String(record.pages.count));
    const pages = fetchPages(s, record);
    assert.equal(texts(result).at(-1), pages[0], 'page 1 is what the call returned');
    assert.ok(record.tokens_after.o200k_base! < 3400, `the call sent ${record.tokens_after.o200k_base} tokens`);
    await assertWithinBudget(pages, record, 3000);
    const toon = await loadFormat('toon');
    const first = toon.decode(contentOf(pages[0]!)) as JsonObject;
    const whole = body(JIRA_SEARCH) as JsonObject;
    assert.deepEqual(Object.keys(first), Object.keys(whole), 'page 1 keeps the envelope and its key order');
    for (const k of ['expand', 'startAt', 'maxResults', 'total']) assert.deepEqual(first[k], whole[k], k);
    const issues = [...(first.issues as JsonValue[]), ...pages.slice(1).flatMap((p) => toon.decode(contentOf(p)) as JsonValue[])];
    assert.ok(jsonEqual({ ...first, issues }, whole), 'the pages together are the upstream value');
    assert.match(pages[1]!, /"issues"/, 'every page says which member it holds');
  });

  it('a GitHub search result ({total_count, items}) is paged by its items', async () => {
    // stc: what auto chooses for it, without counting every candidate of 168,000 tokens first. Auto's
    // choice paged through the proxy: test/proxy-corpus.test.ts (--budget).
    const s = await shaper({ format: 'stc', budget: 4000 });
    const { record } = s.shape('search', {}, { content: [{ type: 'text', text: pretty(SEARCH) }] });
    assert.ok(record.pages, `not paged: ${record.note}`);
    assert.equal(record.pages.member, 'items');
    const pages = fetchPages(s, record);
    await assertWithinBudget(pages, record, 4000);
    const format = await loadFormat(record.format!);
    const first = format.decode(contentOf(pages[0]!)) as JsonObject;
    assert.equal(first.total_count, 57);
    const items = [...(first.items as JsonValue[]), ...pages.slice(1).flatMap((p) => format.decode(contentOf(p)) as JsonValue[])];
    assert.ok(jsonEqual({ ...first, items }, body(SEARCH)));
  });

  it('an object with no list to page (one Jira issue) over the budget goes whole, with the reason in the ledger note', async () => {
    const s = await shaper({ budget: 500 });
    const { record } = s.shape('get_issue', {}, { content: [{ type: 'text', text: pretty(JIRA_ISSUE) }] });
    assert.equal(record.pages, null);
    assert.ok(record.tokens_after.o200k_base! > 500);
    assert.match(
      record.note ?? '',
      /^over --budget \(\d[\d,]* o200k_base tokens, budget 500\), sent whole: not paged: no member of the object is a list/,
    );
  });
  it('nor are plain text, a result of several blocks or a list of one: each over the budget is noted with why', async () => {
    const s = await shaper({ budget: 200 });
    const list = (n: number) =>
      JSON.stringify(
        Array.from({ length: n }, (_, i) => ({ id: i, title: `row number ${i}`, state: 'open' })),
        null,
        2,
      );
    const note = (content: unknown[]) => s.shape('t', {}, { content }).record;
    const plain = note([{ type: 'text', text: 'word '.repeat(400) }]);
    assert.match(
      plain.note ?? '',
      /^over --budget \(\d+ o200k_base tokens, budget 200\), sent whole: not paged: the upstream's text goes through unchanged \(not JSON\)$/,
    );
    const blocks = note([
      { type: 'text', text: list(30) },
      { type: 'text', text: list(31) },
    ]);
    assert.match(blocks.note ?? '', /sent whole: not paged: the result has 2 content blocks/);
    const one = note([{ type: 'text', text: JSON.stringify([{ body: 'long text '.repeat(300) }]) }]);
    assert.equal(one.pages, null);
    assert.match(one.note ?? '', /sent whole: not paged: a list of 1 item cannot be split$/);
    const within = note([{ type: 'text', text: list(3) }]);
    assert.equal(within.note, undefined, 'a result within the budget has nothing to note');
  });
});

describe('proxy --budget: every page within the budget, an item alone larger than a page labelled', () => {
  it("a pull request's files at --budget 3000: pages over the budget are exactly the lone oversized items, labelled in the page and the ledger", async () => {
    // 12 files, small ones and patches of up to 6,000 tokens: pages of several items and lone
    // oversized ones, in 60 KB (betamax 003's 100 issues show the same in 515 KB).
    const s = await shaper({ budget: 3000 });
    const { record } = s.shape('get_body', { name: PR_FILES }, { content: [{ type: 'text', text: pretty(PR_FILES) }] });
    const pages = fetchPages(s, record);
    assert.ok(record.pages!.over_budget.length > 0, 'the pull request has files larger than 3,000 tokens alone');
    assert.ok(pages.length < (body(PR_FILES) as JsonValue[]).length, 'and pages of several small files');
    await assertWithinBudget(pages, record, 3000);
    const format = await loadFormat(record.format!);
    assert.ok(
      jsonEqual(
        pages.flatMap((p) => format.decode(contentOf(p)) as JsonValue[]),
        body(PR_FILES),
      ),
    );
    assert.match(record.note ?? '', /\d+ of \d+ pages over --budget 3000: each holds one item larger than a page/);
  });
});

describe('proxy --level: items left out are named, and the level saving is not the encoder saving', () => {
  // Betamax 003 at minimal, shaped once: the first two tests below look at different parts of it.
  let minimal: Promise<{ s: ResultShaper; shaped: Shaped }> | undefined;
  const betamaxAtMinimal = () =>
    (minimal ??= shaper({ level: 'minimal' }).then((s) => ({
      s,
      shaped: s.shape('get_body', { name: BETAMAX }, { content: [{ type: 'text', text: pretty(BETAMAX) }] }),
    })));

  it('betamax 003 at minimal: the 51 pull requests GitHub lists with the issues are named as left out, in the label and the ledger', async () => {
    const { result, record } = (await betamaxAtMinimal()).shaped;
    const raw = body(BETAMAX) as JsonObject[];
    const pulls = raw.filter((v) => 'pull_request' in v).map((v) => `pr#${v.number as number}`);
    assert.equal(pulls.length, 51);
    const label = texts(result).find((t) => t.startsWith('[devboy proxy: '))!;
    assert.match(label, /^\[devboy proxy: 49 GitHub issues at minimal detail \(fields left out by choice\); left out: 51 pull requests /);
    assert.ok(label.includes(pulls.join(', ')), 'every pull request left out is named');
    assert.equal(record.outcome, 'lowered');
    assert.equal(record.verified, false, 'a lowered list is not the upstream value');
    assert.deepEqual(record.left_out, { items: 51, what: 'pull requests', keys: pulls });
    const format = await loadFormat(record.format!);
    assert.ok(jsonEqual(format.decode(texts(result).at(-1)!), itemsAtLevel(readResponse(raw, BETAMAX), 'minimal')));
  });

  it('the GitHub search at standard: 55 issues and the 2 pull requests named; a Jira search keeps its envelope', async () => {
    const s = await shaper({ level: 'standard' });
    const search = s.shape('search', {}, { content: [{ type: 'text', text: pretty(SEARCH) }] });
    assert.equal(search.record.left_out?.items, 2);
    assert.match(
      texts(search.result).find((t) => t.startsWith('[devboy proxy: '))!,
      /^\[devboy proxy: 55 GitHub issues at standard detail .*left out: 2 pull requests \(sigmavirus24\/github3\.py pr#\d+, \S+ pr#\d+\)/,
    );
    const jira = s.shape('jql', {}, { content: [{ type: 'text', text: pretty(JIRA_SEARCH) }] });
    assert.equal(jira.record.left_out, null);
    const decoded = (await loadFormat(jira.record.format!)).decode(texts(jira.result).at(-1)!) as JsonObject;
    const whole = body(JIRA_SEARCH) as JsonObject;
    assert.deepEqual(Object.keys(decoded), Object.keys(whole));
    assert.equal(decoded.total, whole.total);
    assert.ok(jsonEqual(decoded.issues!, itemsAtLevel(readResponse(whole, JIRA_SEARCH), 'standard')));
  });

  it('--level with --budget: the lowered list is paged too', async () => {
    const s = await shaper({ level: 'standard', budget: 1500 });
    const { record } = s.shape('get_body', {}, { content: [{ type: 'text', text: pretty(BETAMAX) }] });
    assert.equal(record.outcome, 'lowered');
    const pages = fetchPages(s, record);
    await assertWithinBudget(pages, record, 1500);
    const format = await loadFormat(record.format!);
    assert.ok(
      jsonEqual(
        pages.flatMap((p) => format.decode(contentOf(p)) as JsonValue[]),
        itemsAtLevel(readResponse(body(BETAMAX), BETAMAX), 'standard'),
      ),
    );
  });

  it('the summary counts a lowered call apart: a level saving, lossy by choice, not "re-encoded and verified" nor encoder saving', async () => {
    const { s, shaped } = await betamaxAtMinimal();
    const lowered = shaped.record;
    const list = JSON.stringify(
      Array.from({ length: 40 }, (_, i) => ({ id: i, title: `row ${i}`, state: 'open' })),
      null,
      2,
    );
    const plain = s.shape('rows', {}, { content: [{ type: 'text', text: list }] }).record;
    assert.equal(plain.outcome, 'encoded');
    const summary = summarizeLedger(header({ level: 'minimal' }), [lowered, plain]);
    const t = summary.totals[0]!;
    const o = 'o200k_base';
    const b = plain.tokens_before[o]!;
    const e = plain.tokens_after[o]! - plain.header_tokens[o]!;
    assert.equal(summary.encoded, 1);
    assert.equal(summary.lowered, 1);
    assert.equal(t.encoder, 1 - e / b, 'the encoder is judged on the lossless calls only');
    assert.equal(t.level, 1 - lowered.tokens_after[o]! / lowered.tokens_before[o]!);
    assert.ok(t.level > 0.99, String(t.level));
    assert.equal(t.combined, t.dedup + (1 - t.dedup) * t.encoder);
    assert.equal(t.measured, 1 - (lowered.tokens_after[o]! + plain.tokens_after[o]!) / (lowered.tokens_before[o]! + b));
    const text = proxySummaryText(summary);
    // The ledger read back: devboy session prints the same summary, and the benchmark's session table gives the level apart.
    const tmp = mkdtempSync(join(tmpdir(), 'devboy-proxy-level-'));
    const ledger = join(tmp, 'calls.jsonl');
    writeFileSync(ledger, [header({ level: 'minimal' }), lowered, plain].map((l) => `${JSON.stringify(l)}\n`).join(''));
    const session = await runCli(['session', ledger]);
    const markdown = join(tmp, 'report.md');
    // One format is enough for the session table.
    const bench = await benchmarkWithLedger(ledger, ['--formats', 'stc', '--export-markdown', markdown]);
    const report = readFileSync(markdown, 'utf8');
    rmSync(tmp, { recursive: true, force: true });
    assert.equal(session.stdout.trimEnd(), text);
    assert.equal(bench.code, 0, bench.stderr);
    const [row] = (JSON.parse(bench.stdout) as BenchmarkResult).session!.results;
    assert.deepEqual(
      { encoder: row!.encoder, combined: row!.combined, measured: row!.measured, level: row!.level },
      {
        encoder: roundFraction(t.encoder),
        combined: roundFraction(t.combined),
        measured: roundFraction(t.measured),
        level: roundFraction(t.level),
      },
    );
    assert.match(report, /\| format \| dedup \| encoder \| combined \| measured \| level \|/);
    assert.ok(t.dedup < 0 && t.dedup > -0.0005, `the id line makes dedup a hair below zero: ${t.dedup}`);
    assert.match(report, /\| proxy \| 0\.0% \|/, 'and the benchmark prints it as 0.0%, not -0.0%');
    // What the lines say, unfolded (the summary fits 100 columns: test/report-widths.test.ts).
    const wide = proxySummaryText(summary, Number.POSITIVE_INFINITY);
    assert.match(wide, /\n {2}1 re-encoded and verified, 1 lowered to minimal detail \(lossy by choice; 51 items left out\), /);
    assert.match(
      wide,
      /\n {4}level \d+\.\d% \(1 - received \/ baseline of the 1 call lowered to minimal detail: lossy by choice, not verified against the upstream\)/,
    );
  });
});

describe('proxy --format auto: candidates only', () => {
  it('auto tries the candidate formats, never a baseline; a baseline named with --format is used as convert --to uses it', () => {
    const auto = proxyFormats('auto');
    assert.deepEqual(
      auto,
      (Object.keys(FORMAT_INFO) as FormatName[]).filter((n) => FORMAT_INFO[n].role === 'candidate'),
    );
    assert.deepEqual(proxyFormats('yaml'), ['yaml']);
  });

  it('a 20-row list of strings through the proxy goes out in a candidate format, not as CSV (which has fewer tokens and round-trips it)', async () => {
    const rows = Array.from({ length: 20 }, (_, i) => ({ key: `gh#${i + 1}`, title: `row ${i + 1}`, state: i % 3 ? 'open' : 'closed' }));
    // The rows as the text of a plain-text tool: the quick upstream has one. The proxy in this process:
    // what it sends is the claim, not its command line.
    const { got, outcome } = await sessionInProcess(FAILING_SERVER, { dedup: false, explainer: false }, async (client) =>
      texts(await client.callTool({ name: 'say', arguments: { text: JSON.stringify(rows, null, 2) } })),
    );
    assert.equal(outcome.exitCode, 0);
    const csv = await loadFormat('csv');
    const o200k = await loadTokenizer('o200k_base');
    const candidates = await loadFormats((Object.keys(FORMAT_INFO) as FormatName[]).filter((n) => FORMAT_INFO[n].role === 'candidate'));
    const fewest = Math.min(...candidates.map((f) => o200k.count(f.encode(rows))));
    assert.ok(o200k.count(csv.encode(rows)) < fewest, 'CSV has the fewest tokens here, or the test would not tell');
    assert.ok(jsonEqual(csv.decode(csv.encode(rows)), rows), 'CSV round-trips these rows');
    const decodes = candidates.filter((f) => {
      try {
        return f.encode(rows) === got.at(-1);
      } catch {
        return false;
      }
    });
    assert.equal(decodes.length, 1, `sent in no candidate format: ${got.at(-1)!.slice(0, 80)}`);
  });
});

describe('proxy summary', () => {
  it('a single call has no dedup saving to speak of: "dedup 0.0%", never "-0.0%"', async () => {
    const s = await shaper({ format: 'stc' });
    const { record } = s.shape('get_body', {}, { content: [{ type: 'text', text: pretty(SEARCH) }] });
    assert.ok(record.header_tokens.o200k_base! > 0, 'the id line costs a few tokens: the dedup saving is a hair below zero');
    const text = proxySummaryText(summarizeLedger(header(), [record]));
    assert.match(text, / dedup 0\.0%, /);
    assert.doesNotMatch(text, /-0\.0%/);
    assert.ok(jsonEqual(parseJson(pretty(SEARCH)), body(SEARCH)));
  });
});
