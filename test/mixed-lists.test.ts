import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import type { JsonObject, JsonValue } from '../src/json/types.js';
import type { Issue, MergeRequest } from '../src/model/index.js';
import { loadCorpusDatasets, loadLiveDatasets, type RecordingAccount } from '../src/providers/load.js';
import { runCli } from './helpers/cli.js';
import { sourceIssuesAndPulls } from './helpers/hostile-corpus.js';
import { GITHUB_TOKEN, startGithubLive } from './helpers/live-apis.js';
import { corpusDir } from './helpers/paths.js';

// A GitHub issues list that mixes issues and pull requests silently dropped its pull requests:
// betamax's `issues?state=all` measured 83 items while its pagination said 150, and nothing said
// where the other 67 went (the corpus has no /pulls recording for betamax: they were measured
// nowhere). A list of pull requests only was already a merge_requests dataset; a mixed list's pull
// requests now are one too, labelled with the request and "(its pull requests)", so every item of
// the list is measured. devboy format, stats --items and --list follow the same rule.

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const { issues, prs } = sourceIssuesAndPulls();
const BETAMAX_003 = join(corpusDir(), 'github/betamaxpy__betamax/003_GET_repos_betamaxpy_betamax_issues_state_all_per_page_100.json');
const SUFFIX = ' (its pull requests)';

/** One project, `acme__x`: a mixed issues list over two API pages. */
function mixedCorpus(): string {
  const root = mkdtempSync(join(tmpdir(), 'devboy-mixed-'));
  roots.push(root);
  mkdirSync(join(root, 'github', 'acme__x'), { recursive: true });
  const api = 'https://api.github.com/repos/acme/x';
  const put = (name: string, url: string, body: JsonValue, headers: Record<string, string> = {}) =>
    writeFileSync(
      join(root, 'github', 'acme__x', name),
      JSON.stringify({
        provider: 'github',
        project: 'acme__x',
        request: { method: 'GET', url },
        response: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body },
        provenance: {},
      }),
    );
  // Page 1: 3 issues and 2 pull requests; page 2: 1 issue and 4 pull requests.
  put('000_issues.json', `${api}/issues?state=all&per_page=5`, [issues[0]!, prs[0]!, issues[1]!, prs[1]!, issues[2]!], {
    link: `<${api}/issues?state=all&per_page=5&page=2>; rel="next"`,
  });
  put('001_issues_page2.json', `${api}/issues?state=all&per_page=5&page=2`, [prs[2]!, prs[3]!, issues[3]!, prs[4]!, prs[5]!]);
  return root;
}

const numbers = (xs: readonly JsonObject[]) => xs.map((x) => x['number']);

describe('a GitHub issues list mixing issues and pull requests: every item measured', () => {
  it('corpus replay: the issues dataset as before, and its pull requests a merge_requests dataset of their own', async () => {
    const root = mixedCorpus();
    const accounts: RecordingAccount[] = [];
    const datasets = await loadCorpusDatasets(root, { onRecording: (a) => accounts.push(a) });
    const label = 'GET /repos/acme/x/issues?state=all&per_page=5';
    assert.deepEqual(
      datasets.map((d) => [d.kind, d.label, d.result.items.length]),
      [
        ['issues', label, 4],
        ['merge_requests', `${label}${SUFFIX}`, 6],
      ],
    );
    const [issueList, pullList] = datasets;
    assert.deepEqual(
      (issueList!.result.items as Issue[]).map((i) => i.key),
      numbers([issues[0]!, issues[1]!, issues[2]!, issues[3]!]).map((n) => `gh#${String(n)}`),
    );
    // The pull requests as the issues API gives them, in list order, as the PR-only rule reads them.
    assert.deepEqual(
      (pullList!.result.items as MergeRequest[]).map((m) => m.key),
      numbers(prs.slice(0, 6)).map((n) => `pr#${String(n)}`),
    );
    assert.deepEqual(pullList!.raw, prs.slice(0, 6));
    assert.deepEqual(pullList!.requests, issueList!.requests);
    // Both come from the list's two API pages: its pagination and sort.
    assert.deepEqual(pullList!.result.pagination, issueList!.result.pagination);
    assert.equal(issueList!.result.pagination?.total, 10);
    assert.deepEqual(
      accounts.map((a) => [a.file, a.measured]),
      [
        ['github/acme__x/000_issues.json', true],
        ['github/acme__x/001_issues_page2.json', true],
      ],
    );
  });

  it('--list plans both datasets from the recorded first API page', async () => {
    const root = mixedCorpus();
    const r = await runCli(['benchmark', '--list', '--corpus', root, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const listing = JSON.parse(r.stdout) as {
      providers: { projects: { datasets: { kind: string; label: string; files: string[] }[] }[] }[];
    };
    assert.deepEqual(
      listing.providers[0]!.projects[0]!.datasets.map((d) => [d.kind, d.label, d.files]),
      [
        ['issues', 'GET /repos/acme/x/issues?state=all&per_page=5', ['github/acme__x/000_issues.json']],
        ['merge_requests', `GET /repos/acme/x/issues?state=all&per_page=5${SUFFIX}`, ['github/acme__x/000_issues.json']],
      ],
    );
    const text = await runCli(['benchmark', '--list', '--corpus', root]);
    assert.match(text.stdout, /^ {4}merge_requests +GET \/repos\/acme\/x\/issues\?state=all&per_page=5 \(its pull requests\)$/m);
  });

  it('the embedded betamax lists: issues and pull requests add up to every item the lists hold', async () => {
    const r = await runCli([
      'benchmark',
      '--project',
      'betamaxpy__betamax',
      '--runs',
      '1',
      '--levels',
      'minimal',
      '--formats',
      'json-compact',
      '--tokenizers',
      'heuristic',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout) as BenchmarkResult;
    const state = 'GET /repos/betamaxpy/betamax/issues?state=all&per_page=100';
    const asc = 'GET /repos/betamaxpy/betamax/issues?direction=asc&per_page=100';
    assert.deepEqual(
      result.datasets.map((d) => [d.dataset, d.label, d.items, d.pagination?.total]),
      [
        ['issues', asc, 13, 16],
        ['issues', state, 83, 150],
        ['merge_requests', `${asc}${SUFFIX}`, 3, 16],
        ['merge_requests', `${state}${SUFFIX}`, 67, 150],
      ],
    );
    assert.equal(result.recordings?.measured, 3);
  });

  it('live: the issues list pull requests are a dataset of their own beside the /pulls list, as a replay of its recording gives', async () => {
    const live = await startGithubLive();
    try {
      const datasets = await loadLiveDatasets({
        provider: 'github',
        owner: 'acme',
        repo: 'widgets',
        host: live.url,
        env: { GITHUB_TOKEN },
        limit: 40,
        details: 0,
      });
      const label = 'GET /repos/acme/widgets/issues?state=all&per_page=40';
      const lists = datasets.map((d) => [d.kind, d.label]);
      assert.deepEqual(lists, [
        ['issues', label],
        ['merge_requests', `${label}${SUFFIX}`],
        ['merge_requests', 'GET /repos/acme/widgets/pulls?state=all&per_page=40'],
      ]);
      const [issueList, pullList] = datasets;
      // The API pages until 40 issues were in: the pull requests met on the way are all measured.
      assert.ok(issueList!.result.items.length >= 40);
      const seen = issueList!.result.items.length + pullList!.result.items.length;
      const pagination = issueList!.result.pagination!;
      assert.equal(seen, pagination.has_more ? pagination.limit : pagination.total);
      assert.ok(pullList!.result.items.length > 0);
      assert.ok((pullList!.result.items as MergeRequest[]).every((m) => m.key.startsWith('pr#')));
    } finally {
      await live.close();
    }
  });
});

describe('devboy format and stats --items read a mixed list by the same rule', () => {
  it('format: the issues, and a note that names the pull requests left out and how to format them', async () => {
    const r = await runCli(['format', BETAMAX_003, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { metadata: { total_items: number }; pipeline: { kind: string; left_out: unknown } };
    assert.equal(out.metadata.total_items, issues.length);
    assert.equal(out.pipeline.kind, 'issues');
    assert.deepEqual(out.pipeline.left_out, { items: prs.length, what: 'pull requests', type: 'merge_requests' });
    assert.match(
      r.stderr,
      /^devboy format: 51 pull requests left out: they are a list of their own \(--type merge_requests formats them\)$/m,
    );
  });

  it('format --type merge_requests: the pull requests, and the issues named as left out', async () => {
    const r = await runCli(['format', BETAMAX_003, '--json', '--type', 'merge_requests']);
    assert.equal(r.code, 0, r.stderr);
    const out = JSON.parse(r.stdout) as { metadata: { total_items: number }; pipeline: { kind: string; input: string; left_out: unknown } };
    assert.equal(out.metadata.total_items, prs.length);
    assert.equal(out.pipeline.kind, 'merge_requests');
    assert.equal(out.pipeline.input, 'GitHub pull requests (issues API)');
    assert.deepEqual(out.pipeline.left_out, { items: issues.length, what: 'issues', type: 'issues' });
    assert.match(r.stderr, /^devboy format: 49 issues left out: they are a list of their own \(--type issues formats them\)$/m);
  });

  it('stats --items: the first line and --json say what is left out; --type merge_requests measures the pull requests', async () => {
    // A small mixed body (3 issues, 2 pull requests): stats measures every format at every level.
    const dir = mkdtempSync(join(tmpdir(), 'devboy-mixed-stats-'));
    roots.push(dir);
    const file = join(dir, 'issues.json');
    writeFileSync(file, JSON.stringify([issues[0], prs[0], issues[1], prs[1], issues[2]]));
    const args = ['stats', file, '--runs', '1', '--tokenizers', 'heuristic'];
    const text = await runCli([...args, '--items'], { terminal: { columns: 400 } });
    assert.equal(text.code, 0, text.stderr);
    assert.match(
      text.stdout.split('\n')[0]!,
      /: GitHub issues, 3 items: the provider items alone \(--items\), not the whole input; 2 pull requests left out: they are a list of their own \(--type merge_requests measures them\)$/,
    );
    const json = await runCli([...args, '--items', '--json']);
    const input = (JSON.parse(json.stdout) as { input: { items: number; left_out: unknown } }).input;
    assert.equal(input.items, 3);
    assert.deepEqual(input.left_out, { items: 2, what: 'pull requests', type: 'merge_requests' });
    const pulls = await runCli([...args, '--type', 'merge_requests', '--json']);
    assert.equal(pulls.code, 0, pulls.stderr);
    const read = (JSON.parse(pulls.stdout) as { input: { kind: string; items: number; left_out: unknown } }).input;
    assert.deepEqual([read.kind, read.items, read.left_out], ['merge_requests', 2, { items: 3, what: 'issues', type: 'issues' }]);
  });
});
