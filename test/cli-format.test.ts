import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FORMAT_METADATA_FIELDS } from '../src/metadata/format-metadata.js';
import { loadTokenizer } from '../src/tokens/registry.js';
import { responseBody } from './helpers/budget.js';
import { runCli } from './helpers/cli.js';
import { corpusDir } from './helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'devboy-format-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const corpus = corpusDir();
const filesExchange = join(corpus, 'github/rust-lang__triagebot/005_GET_repos_rust_lang_triagebot_pulls_2471_files_per_page_100.json');
// Betamax's first issues page (16 issues, 3 of them pull requests, 87 KB): its 100-item page (474 KB)
// made every run here plan five times as much.
const issuesExchange = join(corpus, 'github/betamaxpy__betamax/001_GET_repos_betamaxpy_betamax_issues_direction_asc_per_page_100.json');
const issuesBody = JSON.stringify(JSON.parse(readFileSync(issuesExchange, 'utf8')).response.body);

describe('devboy format', () => {
  it('--json prints the content and FormatMetadata with all 19 fields; the content is within budget under the tokenizer', async () => {
    const r = await runCli(['format', filesExchange, '--budget', '800', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { content: string; metadata: Record<string, unknown>; pipeline: Record<string, unknown> };
    assert.deepEqual(Object.keys(out.metadata), [...FORMAT_METADATA_FIELDS]);
    const o200k = await loadTokenizer('o200k_base');
    assert.equal(out.metadata['estimated_tokens'], o200k.count(out.content));
    assert.ok(o200k.count(out.content) <= 800);
    assert.equal(out.metadata['format'], 'toon');
    assert.equal(out.metadata['tokenizer'], 'o200k_base');
    assert.equal(out.metadata['baseline'], 'json_compact');
    assert.equal(out.metadata['truncated'], true);
    assert.equal(out.metadata['total_items'], 12);
    assert.deepEqual(out.metadata['provider_pagination'], { offset: 0, limit: 100, total: 12, has_more: false });
    assert.equal(out.pipeline['input'], 'GitHub pull request files');
    assert.equal(out.pipeline['strategy'], 'size_proportional');
  });

  it('reads a provider body from standard input and walks --chunk 1..N through every issue once', async () => {
    // GitHub's issue list also holds pull requests: devboy format leaves them out, as the benchmark does.
    const ids = (JSON.parse(issuesBody) as { number: number; pull_request?: unknown }[])
      .filter((i) => !i.pull_request)
      .map((i) => `gh#${i.number}`);
    // The heuristic tokenizer: the walk is the point, and the process would spend half its time loading o200k_base.
    const walk = ['--budget', '150', '--to', 'json-compact', '--tokenizer', 'heuristic', '--json'];
    const first = await runCli(['format', '-', ...walk], { input: issuesBody });
    assert.equal(first.code, 0, first.stderr);
    const total = (JSON.parse(first.stdout) as { metadata: { total_chunks: number } }).metadata.total_chunks;
    assert.ok(total >= 3, `${total} chunks`);
    const seen: string[] = [];
    // The same body from a file for the later chunks: standard input was checked with the first.
    const bodyFile = join(mkdtempSync(join(tmpdir(), 'devboy-format-')), 'issues.json');
    writeFileSync(bodyFile, issuesBody);
    for (let n = 1; n <= total; n++) {
      const r = n === 1 ? first : await runCli(['format', bodyFile, ...walk, '--chunk', String(n)]);
      assert.equal(r.code, 0, r.stderr);
      const { content } = JSON.parse(r.stdout) as { content: string };
      assert.match(content, /Run again with `--chunk N`/);
      seen.push(...(JSON.parse(responseBody(content)) as { key: string }[]).map((i) => i.key));
    }
    assert.deepEqual(seen, ids);
  });

  it('prints the content alone without --json, and writes -o atomically', async () => {
    const out = join(dir, 'issues.toon');
    const r = await runCli(['format', issuesExchange, '--budget', '1000', '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    // The list's pull requests are left out of its issues, and said so (test/mixed-lists.test.ts).
    assert.match(
      r.stderr,
      /^devboy format: \d+ pull requests left out: they are a list of their own \(--type merge_requests formats them\)\n$/,
    );
    const text = readFileSync(out, 'utf8');
    assert.match(text, /^\[\d+\]/);
    assert.ok((await loadTokenizer('o200k_base')).count(text.replace(/\n$/, '')) <= 1000);
  });

  it('--stats prints one line naming the tokens, the tokenizer, the baseline and the strategy', async () => {
    const r = await runCli(['format', filesExchange, '--budget', '1500', '--stats', '--tokenizer', 'heuristic']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /^chunk 1\/1: 12 of 12 files \(\d+ full, \d+ standard, \d+ minimal, \d+ with text cut\) in [\d,]+ of 1,500 heuristic tokens \(estimate\), toon; \d+\.\d% (fewer|more) tokens than json_compact of the same items as sent; strategy size_proportional \(builtin: diffs\)/,
    );
    assert.equal(r.stderr.split('\n').length, 2);
  });

  it('nothing fits: exit 1, one line naming the budget, nothing on stdout and no file written', async () => {
    const out = join(dir, 'never.toon');
    const r = await runCli(['format', issuesExchange, '--budget', '12', '-o', out]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^devboy format: nothing fits in 12 o200k_base tokens: .*\(raise --budget\)\n$/);
    assert.equal(existsSync(out), false);
  });

  it('a chunk that does not exist is a usage error (exit 2)', async () => {
    const r = await runCli(['format', issuesExchange, '--budget', '1000', '--chunk', '99']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no chunk 99: the response has \d+ chunks? at a budget of 1000 o200k_base tokens/);
  });

  it('devboy.toml in the working directory overrides the strategy; a proxy prefix in --tool is stripped', async () => {
    const cwd = mkdtempSync(join(dir, 'cwd-'));
    writeFileSync(join(cwd, 'devboy.toml'), '[format_pipeline.strategies]\nget_merge_request_diffs = "default"\n');
    const run = async (extra: string[]) => {
      const r = await runCli(['format', filesExchange, '--budget', '800', '--json', ...extra], { cwd });
      assert.equal(r.code, 0, r.stderr);
      return (JSON.parse(r.stdout) as { pipeline: { strategy: string; resolved_by: string } }).pipeline;
    };
    assert.deepEqual(await run(['--tool', 'cloud__get_merge_request_diffs']).then((p) => [p.strategy, p.resolved_by]), [
      'default',
      'config after prefix',
    ]);
    assert.deepEqual(await run([]).then((p) => [p.strategy, p.resolved_by]), ['size_proportional', 'builtin']);
    assert.deepEqual(await run(['--strategy', 'head_tail']).then((p) => [p.strategy, p.resolved_by]), ['head_tail', 'flag']);
  });

  it('a malformed config is a usage error at file:line:col', async () => {
    const config = join(dir, 'bad.toml');
    writeFileSync(config, '[format_pipeline.strategies]\nget_issues = \n');
    const r = await runCli(['format', issuesExchange, '--config', config]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, new RegExp(`^devboy format: ${config.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}:2:\\d+: invalid TOML`));
  });

  it('bad input: invalid JSON at file:line:col, and lists devboy has no model for (exit 1)', async () => {
    const broken = join(dir, 'broken.json');
    writeFileSync(broken, '[{"number": 1,\n "title": }]');
    const a = await runCli(['format', broken]);
    assert.equal(a.code, 1);
    assert.match(a.stderr, /broken\.json:2:\d+: /);
    const commits = join(corpus, 'github/rust-lang__rust/000_GET_repos_rust_lang_rust_commits_author_bors.json');
    const b = await runCli(['format', commits]);
    assert.equal(b.code, 1);
    assert.match(b.stderr, /not a list devboy models: GET \/repos\/rust-lang\/rust\/commits/);
    assert.equal(b.stderr.split('\n').filter(Boolean).length, 1);
  });
});
