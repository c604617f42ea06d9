import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { displayWidth } from '../src/escape/terminal.js';
import { runCli, type CliOptions } from './helpers/cli.js';
import { FIXTURES, REPO_ROOT } from './helpers/paths.js';

// Every command's default report fits the terminal: 100 columns when standard output is not a
// terminal (a pipe, a file, a CI log), the terminal's own width when it is; a table split to fit
// repeats the columns that say what its rows are. Only --details may be wider.

const dir = mkdtempSync(join(tmpdir(), 'devboy-widths-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// A folder name long enough that no report could show a path in it on one line of 100 columns.
const deep = join(dir, `a-folder-whose-name-alone-is-longer-than-a-terminal-line-${'x'.repeat(60)}`);
mkdirSync(deep);

function assertFits(text: string, width: number, what: string): void {
  const wide = text.split('\n').filter((l) => displayWidth(l) > width);
  assert.deepEqual(wide, [], `${what}: ${wide.length} lines wider than ${width}`);
}

const TERMINAL: CliOptions = { terminal: { columns: 72 } };

describe('reports fit the width: 100 columns off a terminal, the terminal width on one', () => {
  it('compare: the verdict, long file names, changed rows with long requests, lost and missing rows, timing', async () => {
    const base: BenchmarkResult = JSON.parse(readFileSync(join(FIXTURES, 'report', 'small-result.json'), 'utf8'));
    for (const r of base.rows) if (r.format === 'toon') r.tokens = Math.floor(r.tokens * 0.9);
    base.rows.find((r) => !r.lossless)!.lossless = true;
    base.rows.push({ ...base.rows[0]!, label: `${base.rows[0]!.label}&and_a_query_that_goes_on=${'y'.repeat(120)}` });
    const baseFile = join(deep, 'base-result-with-a-long-name.json');
    writeFileSync(baseFile, JSON.stringify(base));
    const head = join(FIXTURES, 'report', 'small-result.json');
    for (const options of [{}, TERMINAL]) {
      const width = options.terminal?.columns ?? 100;
      const r = await runCli(['compare', baseFile, head], options);
      assert.equal(r.code, 1, r.stderr);
      assertFits(r.stdout, width, `compare at ${width}`);
      assert.match(r.stdout, /^FAILED: /m);
      // Each changed row is shown under the dataset it belongs to, whose name is whole in the report.
      const regressions = r.stdout.slice(r.stdout.indexOf('Regressions'), r.stdout.indexOf('Stopped round-tripping'));
      assert.match(regressions, /^github artsy__emission comments: GET\b/m);
      assert.match(regressions, /^ {2}\S+ +toon +[\d,]+ -> [\d,]+/m);
      assert.match(r.stdout, /^Missing from the head \(1 row\)/m);
    }
  });

  it('stats: the first lines fold, and a table split to fit repeats its level and tokenizer columns', async () => {
    // Betamax's smaller issues page, cut to its first six items (counts of four and five digits, with
    // thousands separators: still split to fit) under its name in the deep folder, a long path to fold.
    const recorded = join(
      REPO_ROOT,
      'corpus',
      'github',
      'betamaxpy__betamax',
      '001_GET_repos_betamaxpy_betamax_issues_direction_asc_per_page_100.json',
    );
    const recording = JSON.parse(readFileSync(recorded, 'utf8')) as { response: { body: unknown[] } };
    const file = join(deep, basename(recorded));
    writeFileSync(
      file,
      JSON.stringify({ ...recording, response: { ...recording.response, body: recording.response.body.slice(0, 6) } }, null, 2),
    );
    for (const options of [{}, TERMINAL]) {
      const width = options.terminal?.columns ?? 100;
      const r = await runCli(['stats', file, '--runs', '1'], options);
      assert.equal(r.code, 0, r.stderr);
      assertFits(r.stdout, width, `stats at ${width}`);
      assert.match(r.stdout, /^Recommendation: stc, /m);
      const tokens = r.stdout.slice(r.stdout.indexOf('\nTokens'), r.stdout.indexOf('\nBreak-even'));
      const tables = tokens.split('\n\n').filter((t) => t.includes('─'));
      assert.ok(tables.length >= 2, `split into ${tables.length} tables`);
      for (const table of tables) {
        const lines = table.split('\n').filter((l) => l.trim() !== '');
        const head = lines.findIndex((l) => /^level +tokenizer /.test(l));
        assert.ok(head >= 0, table);
        // Every row below the rule says which tokenizer (or pages, bytes) it is, or continues one that does.
        const labelled = lines.slice(head + 2).filter((l) => /^(raw)? +(heuristic|o200k_base|pages|bytes)\b|^raw +heuristic/.test(l));
        assert.ok(labelled.length >= 5, table);
      }
    }
  });

  it('session: the header with a long file name, the per-call table and the GCF delta lines', async () => {
    const calls = join(deep, 'an-agent-session-recorded-over-a-long-afternoon.jsonl');
    const out = [{ id: 1, title: 'a', state: 'open' }];
    writeFileSync(calls, [1, 2, 3].map((i) => JSON.stringify({ tool: `list_issues_${'t'.repeat(40)}`, output: out, n: i })).join('\n'));
    for (const options of [{}, TERMINAL]) {
      const width = options.terminal?.columns ?? 100;
      const r = await runCli(['session', calls, '--tokenizer', 'heuristic', '--gcf-delta'], options);
      assert.equal(r.code, 0, r.stderr);
      assertFits(r.stdout, width, `session at ${width}`);
      assert.match(r.stdout, /^session /);
      assert.match(r.stdout, /^combined +/m);
    }
  });

  it("session of a proxy ledger: the proxy's summary, with a long upstream and long tool names", async () => {
    const ledger = join(deep, 'proxy-ledger.jsonl');
    const header = {
      devboy_proxy_ledger: 1,
      devboy: '0.1.0',
      upstream: `npx-${'u'.repeat(90)}`,
      format: 'auto',
      tokenizer: 'heuristic',
      tokenizers: ['heuristic'],
      baseline: 'upstream',
      dedup: { min_bytes: 64, lru_size: 8 },
      budget: null,
      level: null,
      explainer: false,
    };
    const call = (i: number, why: string | null) => ({
      call: i,
      tool: `github__list_pull_request_review_comments_for_the_whole_repository_${i}`,
      args_sha256: '0123456789abcdef',
      outcome: why ? 'kept' : 'encoded',
      format: why ? null : 'toon',
      verified: !why,
      why,
      level: null,
      pages: null,
      dedup: 'plain',
      dedup_id: null,
      bytes_before: 1000,
      bytes_after: why ? 1000 : 600,
      tokens_before: { heuristic: 286 },
      tokens_after: { heuristic: why ? 286 : 172 },
      header_tokens: { heuristic: 0 },
      explainer_tokens: { heuristic: 0 },
      ms_added: 1,
    });
    const reasons = [
      'not exact JSON: a number a double cannot hold',
      'toon is not smaller (12 vs 10 tokens)',
      'a result under the dedup floor of 64 bytes',
    ];
    writeFileSync(ledger, [header, call(1, null), ...reasons.map((w, i) => call(i + 2, w))].map((x) => JSON.stringify(x)).join('\n'));
    const r = await runCli(['session', ledger]);
    assert.equal(r.code, 0, r.stderr);
    assertFits(r.stdout, 100, 'proxy summary');
    assert.match(r.stdout, /^devboy proxy: 4 tool calls through\b/);
  });

  it('benchmark --list, and a benchmark of every format', async () => {
    for (const options of [{}, TERMINAL]) {
      const width = options.terminal?.columns ?? 100;
      const list = await runCli(['benchmark', '--list'], options);
      assert.equal(list.code, 0, list.stderr);
      assertFits(list.stdout, width, `--list at ${width}`);
    }
    const r = await runCli([
      'benchmark',
      '--project',
      'artsy__emission',
      '--dataset',
      'comments',
      '--formats',
      'all',
      '--runs',
      '1',
      '--tokenizers',
      'heuristic',
    ]);
    assert.equal(r.code, 0, r.stderr);
    assertFits(r.stdout, 100, 'benchmark --formats all');
  });

  it('convert --to auto --stats: the choice and the figures on stderr', async () => {
    const file = join(deep, 'issues.json');
    writeFileSync(file, JSON.stringify(Array.from({ length: 20 }, (_, i) => ({ id: i, title: `issue ${i}`, state: 'open', labels: [] }))));
    const r = await runCli(['convert', file, '--to', 'auto', '--stats', '--tokenizer', 'heuristic']);
    assert.equal(r.code, 0, r.stderr);
    assertFits(r.stderr, 100, 'convert --stats');
    assert.match(r.stderr, /^auto: /);
  });
});
