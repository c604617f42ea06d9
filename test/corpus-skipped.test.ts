import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import type { DevboyError } from '../src/errors.js';
import { loadCorpusDatasets } from '../src/providers/load.js';
import { PROVIDER_NAMES } from '../src/providers/registry.js';
import { corpusDatasets } from './helpers/budget.js';
import { runCli } from './helpers/cli.js';
import { corpusDir } from './helpers/paths.js';

// A corpus as another tool (or a bad day) leaves it: next to one good recording, every kind of file
// that once stopped the whole benchmark. Each must be named with its reason; the rest must be read.

const root = mkdtempSync(join(tmpdir(), 'devboy-skipped-'));
after(() => rmSync(root, { recursive: true, force: true }));
const project = join(root, 'github', 'acme__x');
// Betamax's first issues page: 16 issues, 3 of them pull requests, 87 KB (the benchmark plans its pages).
const good = 'github/betamaxpy__betamax/001_GET_repos_betamaxpy_betamax_issues_direction_asc_per_page_100.json';

const EXPECTED: Record<string, RegExp> = {
  '002_binary.json': /^invalid UTF-8 at byte 3 \(0xFF\)/,
  '003_empty.json': /^empty file$/,
  '004_truncated.json': /invalid JSON/,
  '006_wrongtype.json': /^not a recorded exchange: "response\.status" must be a number, got a string$/,
  '007a_loop.json': /^a symlink loop$/,
  '007b_loop.json': /^a symlink loop$/,
  '008_html.json': /^malformed response from GitHub for GET \/repos\/acme\/x\/pulls\?state=all: .*got HTML$/,
  '009_object.json': /^malformed response from GitHub for GET \/repos\/acme\/x\/issues\/5\/comments: .*got an object$/,
  '011_dir.json': /^not a regular file \(a folder\)$/,
  '012_fifo.json': /^not a regular file \(a FIFO\)$/,
};

before(() => {
  mkdirSync(project, { recursive: true });
  const ok = JSON.parse(readFileSync(join(corpusDir(), good), 'utf8')) as { request: { url: string }; response: Record<string, unknown> };
  const variant = (url: string, body: unknown) =>
    JSON.stringify({ ...ok, request: { ...ok.request, url }, response: { ...ok.response, body } });
  copyFileSync(join(corpusDir(), good), join(project, '001_ok.json'));
  writeFileSync(join(project, '002_binary.json'), Buffer.from([0x7b, 0x22, 0x61, 0xff, 0xfe, 0x00]));
  writeFileSync(join(project, '003_empty.json'), '');
  writeFileSync(join(project, '004_truncated.json'), readFileSync(join(corpusDir(), good), 'utf8').slice(0, 500));
  writeFileSync(join(project, '005_bom.json'), `\uFEFF${variant('https://api.github.com/repos/acme/x/issues?state=closed', [])}`);
  writeFileSync(join(project, '006_wrongtype.json'), JSON.stringify({ ...ok, response: { ...ok.response, status: '200' } }));
  symlinkSync('007b_loop.json', join(project, '007a_loop.json'));
  symlinkSync('007a_loop.json', join(project, '007b_loop.json'));
  writeFileSync(
    join(project, '008_html.json'),
    variant('https://api.github.com/repos/acme/x/pulls?state=all', '<html>Rate limited</html>'),
  );
  writeFileSync(join(project, '009_object.json'), variant('https://api.github.com/repos/acme/x/issues/5/comments', { message: 'oops' }));
  writeFileSync(join(project, '010_commits.json'), variant('https://api.github.com/repos/acme/x/commits', []));
  mkdirSync(join(project, '011_dir.json'));
  execFileSync('mkfifo', [join(project, '012_fifo.json')]);
  mkdirSync(join(root, 'bitbucket', 'acme__y'), { recursive: true });
  writeFileSync(join(root, 'bitbucket', 'acme__y', '001.json'), '{}');
  mkdirSync(join(root, 'LICENSES'));
  writeFileSync(join(root, 'LICENSES', 'MIT'), 'text');
});

describe('a corpus with recordings devboy cannot read', () => {
  it('the library names every one with its reason and reads the rest', async () => {
    const skipped: { file: string; reason: string }[] = [];
    const datasets = await loadCorpusDatasets(root, { onSkip: (s) => skipped.push(s) });
    // The good recording's issues, and the pull requests its list mixes in.
    assert.deepEqual(
      datasets.map((d) => [d.kind, d.label]),
      [
        ['issues', 'GET /repos/betamaxpy/betamax/issues?direction=asc&per_page=100'],
        ['merge_requests', 'GET /repos/betamaxpy/betamax/issues?direction=asc&per_page=100 (its pull requests)'],
      ],
    );
    const byFile = new Map(skipped.map((s) => [s.file.split('/').at(-1)!, s.reason]));
    for (const [file, reason] of Object.entries(EXPECTED)) assert.match(byFile.get(file) ?? '(not skipped)', reason, file);
    assert.equal(byFile.get('bitbucket/'), undefined);
    assert.ok(skipped.some((s) => s.file === 'bitbucket/' && /not a provider devboy reads/.test(s.reason)));
    // Readable recordings are never listed: the BOM-prefixed one, the good one, and commits (an endpoint devboy does not model).
    for (const file of ['001_ok.json', '005_bom.json', '010_commits.json']) assert.equal(byFile.get(file), undefined, file);
    assert.equal(skipped.length, Object.keys(EXPECTED).length + 1);
    assert.ok(
      skipped.every((s) => !s.reason.includes('127.0.0.1')),
      'no loopback address in a reason',
    );
  });

  it('without onSkip the library stops at the first, naming the file', async () => {
    await assert.rejects(loadCorpusDatasets(root), (err: DevboyError) =>
      /acme__x\/002_binary\.json:1:4: invalid UTF-8/.test(err.oneLine()),
    );
  });

  it('devboy benchmark completes, lists them in the table and --json, and exits 1 unless --allow-skipped', async () => {
    const out = join(root, 'run.json');
    const r = await runCli(['benchmark', '--corpus', root, '--runs', '1', '--levels', 'minimal', '--formats', 'toon', '-o', out]);
    assert.equal(r.code, 1, r.stderr);
    assert.match(r.stdout, /^Skipped: 11 corpus recordings could not be read or replayed/m);
    assert.match(r.stdout, /^ {2}github\/acme__x\/012_fifo\.json: not a regular file \(a FIFO\)$/m);
    assert.equal(
      r.stderr,
      'devboy benchmark: 11 corpus recordings were skipped (listed in the report); --allow-skipped accepts a partial corpus\n',
    );
    const saved = JSON.parse(readFileSync(out, 'utf8')) as BenchmarkResult;
    assert.equal(saved.skipped?.length, 11);
    assert.deepEqual(
      saved.skipped?.find((s) => s.file.endsWith('002_binary.json')),
      {
        file: 'github/acme__x/002_binary.json',
        line: 1,
        col: 4,
        reason: 'invalid UTF-8 at byte 3 (0xFF): a byte UTF-8 never uses',
      },
    );
    assert.equal(saved.datasets.length, 2);
    const allowed = await runCli([
      'benchmark',
      '--corpus',
      root,
      '--runs',
      '1',
      '--levels',
      'minimal',
      '--formats',
      'toon',
      '--allow-skipped',
      '--markdown',
    ]);
    assert.equal(allowed.code, 0, allowed.stderr);
    assert.match(allowed.stdout, /^### Skipped recordings \(11\)$/m);
  });

  it('the embedded corpus skips nothing', async () => {
    // Read without onSkip, which stops at the first recording skipped (the test above): the whole
    // corpus as the budget tests read it, once a process.
    const datasets = await corpusDatasets();
    assert.deepEqual([...new Set(datasets.map((d) => d.provider))].sort(), [...PROVIDER_NAMES].sort());
  });
});
