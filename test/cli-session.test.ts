import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadFormat } from '../src/formats/registry.js';
import type { JsonValue } from '../src/json/types.js';
import { loadTokenizer } from '../src/tokens/registry.js';
import { runCli } from './helpers/cli.js';
import { corpusDir } from './helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'devboy-session-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const body = (rel: string): JsonValue => JSON.parse(readFileSync(join(corpusDir(), rel), 'utf8')).response.body;
// Bodies of 6 to 90 KB: every test encodes and counts each of them several times, and the rules do
// not depend on size (500 KB bodies cost most of this file's time and proved nothing more).
const issues = body('github/betamaxpy__betamax/001_GET_repos_betamaxpy_betamax_issues_direction_asc_per_page_100.json');
const repo = body('github/betamaxpy__betamax/000_GET_repositories_11439734.json');
const jira = body('jira/ALOY/020_GET_rest_api_2_issue_ALOY_1217.json');
const notFound = { message: 'Not Found', documentation_url: 'https://docs.github.com/rest', detail: 'x'.repeat(600) };

// Exact repeats, a repeated error, small bodies, a string output, a boundary, and a body after it.
const lines: object[] = [
  { tool: 'list_issues', args: { repo: 'betamax' }, output: issues },
  { tool: 'get_repo', output: repo },
  { tool: 'list_issues', args: { repo: 'betamax' }, output: issues }, // hit
  { tool: 'get_issue', output: notFound, is_error: true },
  { tool: 'get_issue', output: notFound, is_error: true }, // error: never a hit
  { tool: 'ping', output: { ok: true } },
  { tool: 'ping', output: { ok: true } }, // small: never a hit
  { tool: 'get_jira_issue', output: jira },
  { tool: 'get_repo', output: repo }, // hit
  { tool: 'note', output: 'a plain text result, sent as-is' },
  { boundary: 'compaction' },
  { tool: 'get_repo', output: repo }, // sent again after compaction
  { tool: 'get_jira_issue', output: jira },
  { tool: 'get_jira_issue', output: jira }, // hit
];
const sessionFile = join(dir, 'session.jsonl');
before(() => writeFileSync(sessionFile, lines.map((l) => JSON.stringify(l)).join('\n') + '\n'));

/** The rules of docs/session.md, written out again here so the CLI is checked against them. */
async function expected(format: 'toon' | 'json-compact', baseline: 'json_compact' | 'json_pretty') {
  const tk = await loadTokenizer('o200k_base');
  const codec = await loadFormat(format);
  const idOf = (v: JsonValue) => 'shadow_' + createHash('sha256').update(JSON.stringify(v)).digest('hex').slice(0, 12);
  let seen = new Set<string>();
  const t = { base: 0, baseSent: 0, encSent: 0, refs: 0, headers: 0, received: 0, hits: 0 };
  for (const l of lines as Array<{ boundary?: string; output: JsonValue; is_error?: boolean }>) {
    if (l.boundary) {
      seen = new Set();
      continue;
    }
    const isText = typeof l.output === 'string';
    const b = tk.count(
      isText ? (l.output as string) : baseline === 'json_pretty' ? JSON.stringify(l.output, null, 2) : JSON.stringify(l.output),
    );
    const enc = isText ? (l.output as string) : codec.encode(l.output);
    t.base += b;
    const eligible = !l.is_error && Buffer.byteLength(JSON.stringify(l.output)) >= 512;
    const id = idOf(l.output);
    if (eligible && seen.has(id)) {
      const ref = tk.count(`<<<SHADOW:${id}>>> same output as the earlier result with this id`);
      t.refs += ref;
      t.received += ref;
      t.hits++;
      continue;
    }
    const sent = eligible ? tk.count(`<<<SHADOW:${id}>>>\n${enc}`) : tk.count(enc);
    if (eligible) seen.add(id);
    t.baseSent += b;
    t.encSent += tk.count(enc);
    t.headers += sent - tk.count(enc);
    t.received += sent;
  }
  const dedup = (t.base - t.baseSent - t.refs - t.headers) / t.base;
  const encoder = 1 - t.encSent / t.baseSent;
  return {
    hits: t.hits,
    baseline_tokens: t.base,
    received_tokens: t.received,
    dedup,
    encoder,
    combined: dedup + (1 - dedup) * encoder,
    measured: 1 - t.received / t.base,
  };
}

describe('devboy session', () => {
  for (const [format, baseline] of [
    ['toon', 'json_compact'],
    ['json-compact', 'json_pretty'],
  ] as const) {
    it(`--format ${format} --savings-baseline ${baseline}: hits and savings match the documented rules`, async () => {
      const r = await runCli(['session', sessionFile, '--format', format, '--savings-baseline', baseline, '--json']);
      assert.equal(r.code, 0, r.stderr);
      const report = JSON.parse(r.stdout);
      const want = await expected(format, baseline);
      assert.equal(report.hits, 3);
      assert.equal(report.hits, want.hits);
      assert.deepEqual(
        report.per_call.map((c: { hit: boolean }) => c.hit),
        [false, false, true, false, false, false, false, false, true, false, false, false, true],
      );
      assert.equal(report.errors, 2);
      assert.equal(report.boundaries, 1);
      assert.equal(report.baseline, baseline);
      assert.equal(report.tokenizer, 'o200k_base');
      assert.equal(report.baseline_tokens, want.baseline_tokens);
      assert.equal(report.received_tokens, want.received_tokens);
      for (const [k, v] of [
        ['dedup_savings_pct', want.dedup],
        ['encoder_savings_pct', want.encoder],
        ['combined_savings_pct', want.combined],
        ['measured_savings_pct', want.measured],
      ] as const) {
        assert.ok(Math.abs(report[k] - v) < 1e-12, `${k}: ${report[k]} vs ${v}`);
      }
      assert.ok(report.dedup_savings_pct > 0.3, 'three large repeats are over 40% of this session');
    });
  }

  it('every ref points at an id that appeared in an earlier output since the last boundary; content is what the model gets', async () => {
    const r = await runCli(['session', sessionFile, '--format', 'toon', '--json']);
    const report = JSON.parse(r.stdout);
    const segments = [report.per_call.slice(0, 10), report.per_call.slice(10)];
    for (const calls of segments) {
      const shown: string[] = [];
      for (const c of calls) {
        if (c.hit) {
          assert.ok(shown.includes(c.ref), `${c.ref} not shown earlier`);
          assert.equal(c.content, `<<<SHADOW:${c.ref}>>> same output as the earlier result with this id`);
        } else if (c.id) {
          assert.ok(c.content.startsWith(`<<<SHADOW:${c.id}>>>\n`));
          shown.push(c.id);
        }
      }
    }
    assert.equal(report.per_call[9].content, 'a plain text result, sent as-is');
    assert.equal(report.per_call[3].plain_reason, 'error');
    assert.equal(report.per_call[5].plain_reason, 'small');
  });

  it('GCF: calls whose encoding loses key order are reported as lossy, never lossless', async () => {
    const r = await runCli(['session', sessionFile, '--format', 'gcf', '--json']);
    const report = JSON.parse(r.stdout);
    assert.equal(report.per_call[0].lossless, false); // issues and pull requests, their keys differing: GCF's known loss
    assert.equal(report.per_call[2].lossless, false); // a ref to a lossy body is no better
    assert.ok(report.lossy_calls >= 2);
  });

  it('the text report names the tokenizer on every total and the baseline on every saving', async () => {
    const r = await runCli(['session', sessionFile, '--format', 'toon', '--tokenizer', 'heuristic']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^baseline\s+[\d,]+ heuristic tokens, an estimate \(json_compact\)$/m);
    assert.match(r.stdout, /^received\s+[\d,]+ heuristic tokens, an estimate$/m);
    assert.match(r.stdout, /^all savings: heuristic tokens, an estimate against json_compact$/m);
    assert.match(r.stdout, /^calls 13, hits 3, errors 2/m);
  });

  it('--min-bytes and --lru-size change what can be referred to', async () => {
    const tiny = await runCli(['session', sessionFile, '--min-bytes', '0', '--json']);
    // {"ok":true} now gets an id, but a ref would cost more than the body: it is sent again (seed 002).
    const tinyReport = JSON.parse(tiny.stdout);
    assert.equal(tinyReport.hits, 3);
    assert.equal(tinyReport.per_call[6].hit, false);
    assert.equal(tinyReport.per_call[6].id, tinyReport.per_call[5].id);
    assert.match(tinyReport.per_call[6].content, /^<<<SHADOW:shadow_[0-9a-f]{12}>>>\n\{"ok":true\}$/);
    const one = await runCli(['session', sessionFile, '--lru-size', '1', '--json']);
    // Only the body just sent can be referred to: the back-to-back Jira issue is the one hit left.
    assert.deepEqual(
      JSON.parse(one.stdout)
        .per_call.map((c: { hit: boolean }) => c.hit)
        .lastIndexOf(true),
      12,
    );
    assert.equal(JSON.parse(one.stdout).hits, 1);
  });
});

describe('devboy session: bad input', () => {
  it('invalid JSON on a line: exit 1, file:line:col, nothing on stdout', async () => {
    const bad = join(dir, 'bad.jsonl');
    writeFileSync(bad, '{"tool":"a","output":1}\n\n{"tool":"b","output":[1,}\n');
    const r = await runCli(['session', bad]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `devboy session: ${bad}:3:25: invalid JSON: unexpected '}' (expected a value)\n`);
  });

  it('a call without a tool name points at the line', async () => {
    const bad = join(dir, 'notool.jsonl');
    writeFileSync(bad, '{"tool":"a","output":1}\n{"output":2,"tool":7}\n');
    const r = await runCli(['session', bad]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `devboy session: ${bad}:2:13: a call needs "tool" (a non-empty string)\n`);
  });

  it('usage errors exit 2', async () => {
    const r = await runCli(['session', sessionFile, '--savings-baseline', 'toon']);
    assert.equal(r.code, 2);
    assert.equal(r.stderr.trim().split('\n').length, 1);
    const missing = await runCli(['session', join(dir, 'nope.jsonl')]);
    assert.equal(missing.code, 2);
    assert.match(missing.stderr, /nope\.jsonl: no such file\n$/);
  });

  it('every kind of bad session file gets one line that starts with the file (and line:col where known)', async () => {
    const cases: [string, string, RegExp][] = [
      ['empty.jsonl', '', /: no tool calls found \(read as devboy\)$/],
      ['only-boundary.jsonl', '{"boundary":"compaction"}\n', /: no tool calls found/],
      ['huge-number.jsonl', '{"tool":"x","output":{"a":1e400}}\n', /:1:27: number 1e400 is out of range of a double/],
      ['dup-key.jsonl', '{"tool":"x","output":{"a":1,"a":2}}\n', /:1:\d+: duplicate key "a"/],
      ['no-output.jsonl', '{"tool":"x","output":1}\n{"tool":"y"}\n', /:2:1: a call needs "output"/],
      ['unknown.json', '{"messages": 3}', /: cannot tell the session format/],
      ['chat-nothing.json', '[1,2]', /: no tool calls found \(read as openai-chat\)$/],
      [
        'claude-broken.jsonl',
        '{"type":"user","message":{"content":[{"type":"tool_result","tool_use_id":"t1","content":"x"}]}}\n{"type":"assistant","message":{"content":"oops',
        /:2:\d+: invalid JSON/,
      ],
    ];
    for (const [name, text, reason] of cases) {
      const file = join(dir, name);
      writeFileSync(file, text);
      const r = await runCli(['session', file]);
      assert.equal(r.code, 1, name);
      assert.equal(r.stderr.split('\n').length, 2, `${name}: one line`);
      assert.ok(r.stderr.startsWith(`devboy session: ${file}`), `${name}: ${r.stderr}`);
      assert.match(r.stderr.trim(), reason, name);
    }
  });
});
