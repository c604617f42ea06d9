import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { compareResults } from '../src/compare/compare.js';
import { PROVIDER_NAMES } from '../src/providers/registry.js';
import { runCli } from './helpers/cli.js';
import { corpusDir } from './helpers/paths.js';
import { FULL_SUITE } from './helpers/sampling.js';
import { assertSameSections } from './helpers/merged-sections.js';

// A real split of the corpus run, as a CI matrix makes it: one run per provider, merged, against
// the whole run, over the comment datasets (every provider has some) at one level in two formats. DEVBOY_TEST_CORPUS=full runs the
// whole grid (about a minute); .ci/run's gate splits the full grid the same way on every change and
// compares the merged result with results/baseline.json. The corpus is a copy with one recording per
// provider that is not a recorded exchange, so each part lists its own skipped recording and the
// whole run all of them. Other splits (by project, arbitrary ones): test/merge-splits.test.ts.

const dir = mkdtempSync(join(tmpdir(), 'devboy-merge-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const corpus = join(dir, 'corpus');
const grid = FULL_SUITE ? [] : ['--levels', 'minimal', '--formats', 'json-compact,toon', '--dataset', 'comments'];
// Every recording is replayed by each run, whatever its kind: the fast suite's copy holds, per
// provider, the smallest project with comments (a sixth of the corpus); the full suite's, all of it.
const projects = FULL_SUITE ? ['.'] : ['github/artsy__emission', 'gitlab/gitlab-org__gitlab-foss', 'jira/AC'];
const common = ['--corpus', corpus, '--runs', '1', '--allow-skipped', ...grid];
const partFile = (p: string) => join(dir, `devboy-head-${p}.json`);
const wholeFile = join(dir, 'whole.json');
const mergedFile = join(dir, 'merged.json');
/** A file that is no recorded exchange, in the provider's first recorded project (test/registries.test.ts asks every provider for one). */
const badFile = (p: string) => {
  const [project] = readdirSync(join(corpus, p), { withFileTypes: true })
    .filter((e) => e.isDirectory())
    .map((e) => e.name)
    .sort();
  assert.ok(project, `corpus/${p}/ has no recorded project`);
  return `${p}/${project}/999_not_an_exchange.json`;
};
let whole: BenchmarkResult;
let merged: BenchmarkResult;

before(async () => {
  for (const p of projects) cpSync(join(corpusDir(), p), join(corpus, p), { recursive: true });
  for (const p of PROVIDER_NAMES) writeFileSync(join(corpus, badFile(p)), '{"not": "a recorded exchange"}\n');
  const w = await runCli(['benchmark', ...common, '--export-json', wholeFile]);
  assert.equal(w.code, 0, w.stderr);
  for (const p of PROVIDER_NAMES) {
    const r = await runCli(['benchmark', ...common, '--provider', p, '--export-json', partFile(p)]);
    assert.equal(r.code, 0, r.stderr);
  }
  const m = await runCli(['merge', ...PROVIDER_NAMES.map(partFile), '-o', mergedFile]);
  assert.equal(m.code, 0, m.stderr);
  assert.match(m.stderr, new RegExp(`^devboy merge: ${PROVIDER_NAMES.length} results, \\d+ datasets, \\d+ rows -> .*merged\\.json\\n$`));
  whole = JSON.parse(readFileSync(wholeFile, 'utf8'));
  merged = JSON.parse(readFileSync(mergedFile, 'utf8'));
});

describe('devboy merge: per-provider runs equal the whole run', () => {
  it("every section equals the whole run's (rows field for field, timings aside), skipped recordings included", () => {
    assert.equal(merged.rows.length, whole.rows.length);
    assertSameSections(merged, whole);
    assert.deepEqual(
      whole.skipped!.map((s) => s.file),
      PROVIDER_NAMES.map(badFile),
    );
  });

  it('keeps provenance: each part its file, source and counts; the source what they share', () => {
    assert.deepEqual(merged.source, { kind: 'corpus', corpus });
    assert.deepEqual(
      merged.merged_from!.map((p) => [p.file, p.source.provider, p.datasets, p.rows]),
      PROVIDER_NAMES.map((p) => {
        const part: BenchmarkResult = JSON.parse(readFileSync(partFile(p), 'utf8'));
        return [partFile(p), p, part.datasets.length, part.rows.length];
      }),
    );
  });

  it('devboy compare of the whole run and the merged one: nothing changed, nothing missing', () => {
    const c = compareResults({ file: 'whole', result: whole }, { file: 'merged', result: merged });
    assert.equal(c.passed, true);
    assert.equal(c.counts.rows_compared, whole.rows.length);
    assert.equal(c.counts.added + c.counts.removed + c.counts.out_of_scope, 0);
  });

  it('a merged result minus one part is gated as missing rows, not as out of scope', () => {
    const partial = JSON.parse(readFileSync(partFile(PROVIDER_NAMES[0]!), 'utf8')) as BenchmarkResult;
    const c = compareResults({ file: 'whole', result: whole }, { file: 'part', result: partial });
    assert.equal(c.counts.removed, 0, 'a provider-narrowed run has only its provider in scope');
    const two = compareResults(
      { file: 'whole', result: whole },
      { file: 'two', result: { ...merged, merged_from: merged.merged_from!.slice(1) } },
    );
    assert.equal(two.counts.out_of_scope, partial.rows.length);
  });
});

describe('devboy merge refuses what is not one measurement, in one line', () => {
  const variant = (name: string, change: (r: BenchmarkResult) => void) => {
    const doc: BenchmarkResult = JSON.parse(readFileSync(partFile('jira'), 'utf8'));
    change(doc);
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(doc));
    return file;
  };
  const cases: [string, (r: BenchmarkResult) => void, RegExp][] = [
    ['budget.json', (r) => (r.settings.budget = 4000), /budget\.json: settings\.budget is 4000 but .*devboy-head-github\.json has 8000/],
    ['runs.json', (r) => (r.settings.runs = 3), /runs\.json: settings\.runs is 3 but .* has 1/],
    [
      'tokenizer.json',
      (r) => (r.tokenizers[1]!.implementation = 'gpt-tokenizer 9.9.9, o200k_base BPE'),
      /tokenizer\.json: tokenizer o200k_base is 'gpt-tokenizer 9\.9\.9, o200k_base BPE' but .* has 'gpt-tokenizer/,
    ],
    ['tokenizers.json', (r) => (r.tokenizers = r.tokenizers.slice(0, 1)), /tokenizers is heuristic but .* has heuristic,o200k_base/],
    ['version.json', (r) => (r.devboy = '9.0.0'), /version\.json: devboy version is 9\.0\.0 but/],
    ['live.json', (r) => (r.source = { kind: 'live', provider: 'jira', target: 'X' }), /live\.json: is a live run and .* a corpus run/],
  ];
  for (const [name, change, message] of cases) {
    it(name.replace('.json', ''), async () => {
      const r = await runCli(['merge', partFile('github'), variant(name, change), '-o', join(dir, 'never.json')]);
      assert.equal(r.code, 1, r.stderr);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, /^devboy merge: /);
      assert.match(r.stderr, message);
    });
  }

  it('the same dataset twice (a job run twice)', async () => {
    const r = await runCli(['merge', partFile('github'), partFile('github')]);
    assert.equal(r.code, 1);
    assert.match(r.stderr, /devboy-head-github\.json: measures github \S+ \S+ GET .*, which .*devboy-head-github\.json measured too/);
    assert.equal(r.stdout, '');
  });

  it('no files is a usage error', async () => {
    const r = await runCli(['merge']);
    assert.equal(r.code, 2);
  });
});
