import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { after, describe, it } from 'node:test';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { checkResultFields } from '../src/benchmark/validate-result.js';
import type { JsonObject, JsonValue } from '../src/json/types.js';
import type { MergeRequest } from '../src/model/index.js';
import { openClient } from '../src/providers/client.js';
import { loadCorpusDatasets, type RecordingAccount } from '../src/providers/load.js';
import { PROVIDERS } from '../src/providers/registry.js';
import type { CorpusEntry } from '../src/replay/exchange.js';
import { ReplayServer } from '../src/replay/server.js';
import { EXPORTERS } from '../src/report/index.js';
import { runCli } from './helpers/cli.js';
import { HOSTILE_FILES, makeHostileCorpus, sourceIssuesAndPulls } from './helpers/hostile-corpus.js';

// Issue 21 item 3: recordings vanished. A GitHub search whose items are all pull requests made no
// dataset and was not listed as skipped (--list showed it as a planned issues dataset), and other
// recordings were neither measured nor listed. Every recording of a corpus is now accounted for,
// in the report and --json: it feeds a dataset, or it is listed with its file and why not, and
// the summary's one line counts each. A list of pull requests from the issues or search API is
// measured as merge requests.

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const { issues, prs } = sourceIssuesAndPulls();

/** Every recording file under a corpus, relative to it. */
function filesOf(root: string): string[] {
  const out: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.json')) out.push(relative(root, path));
    }
  };
  walk(root);
  return out.sort();
}

describe('the held-out corpus: every recording accounted for', () => {
  const root = makeHostileCorpus();
  roots.push(root);
  const out = join(mkdtempSync(join(tmpdir(), 'devboy-acct-out-')), 'run.json');
  roots.push(join(out, '..'));

  it('benchmark --json: each file feeds a dataset, or is listed with its reason; the counts add up to the corpus', async () => {
    const r = await runCli([
      'benchmark',
      '--corpus',
      root,
      '--allow-skipped',
      '--runs',
      '1',
      '--levels',
      'minimal',
      '--formats',
      'toon',
      '-o',
      out,
    ]);
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(readFileSync(out, 'utf8')) as BenchmarkResult;
    checkResultFields(result);
    const listed = new Map<string, string>([
      ...(result.skipped ?? []).map((s) => [s.file, 'skipped'] as [string, string]),
      ...(result.unmeasured ?? []).map((u) => [u.file, 'not measured'] as [string, string]),
    ]);
    const files = filesOf(root);
    assert.deepEqual(files, Object.keys(HOSTILE_FILES).sort());
    for (const file of files) assert.equal(listed.get(file) ?? 'measured', HOSTILE_FILES[file as keyof typeof HOSTILE_FILES], file);
    const measured = files.filter((f) => !listed.has(f)).length;
    assert.deepEqual(result.recordings, { measured, unmeasured: 0, skipped: 3 });
    assert.equal(result.recordings!.measured + result.recordings!.unmeasured + result.recordings!.skipped, files.length);
    // The search of pull requests only: measured as merge requests, its 30 items all there.
    const search = result.datasets.find((d) => d.project === '_search');
    assert.deepEqual([search?.dataset, search?.items], ['merge_requests', 30]);
    assert.match(r.stdout, /^Recordings: 5 of 8 corpus recordings measured \(they feed the datasets\), 0 not measured, 3 skipped\.$/m);
  });

  it('--list plans the search of pull requests as a merge requests dataset', async () => {
    const r = await runCli(['benchmark', '--list', '--corpus', root]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^ {4}merge_requests +GET \/search\/issues\?q=is:pr\+language:C%2B%2B&per_page=30$/m);
  });
});

/** Recordings each of a cause devboy does not measure, beside ones it does. */
function accountingCorpus(): { root: string; expected: Record<string, string> } {
  const root = mkdtempSync(join(tmpdir(), 'devboy-acct-'));
  roots.push(root);
  const expected: Record<string, string> = {};
  const put = (
    name: string,
    want: string,
    url: string,
    body: JsonValue,
    over: { method?: string; status?: number; headers?: Record<string, string>; recorded_at?: string } = {},
  ) => {
    const file = `github/acme__x/${name}`;
    mkdirSync(join(root, 'github', 'acme__x'), { recursive: true });
    writeFileSync(
      join(root, file),
      JSON.stringify({
        provider: 'github',
        project: 'acme__x',
        request: { method: over.method ?? 'GET', url },
        response: { status: over.status ?? 200, headers: { 'content-type': 'application/json; charset=utf-8', ...over.headers }, body },
        provenance: over.recorded_at ? { recorded_at: over.recorded_at } : {},
      }),
    );
    expected[file] = want;
  };
  const api = 'https://api.github.com/repos/acme/x';
  put('000_issues.json', 'measured', `${api}/issues?state=all&per_page=5`, issues.slice(0, 5), {
    headers: { link: `<${api}/issues?state=all&per_page=5&page=2>; rel="next"` },
  });
  put('001_issues_page2.json', 'measured', `${api}/issues?state=all&per_page=5&page=2`, issues.slice(5, 10));
  put('002_pulls_page7.json', 'unreached-api-page', `${api}/pulls?page=7`, []);
  put('003_commits.json', 'not-a-list', `${api}/commits`, [{ sha: 'abc' }]);
  put('004_issue_404.json', 'error-answer', `${api}/issues/99`, { message: 'Not Found' }, { status: 404 });
  put('005_post.json', 'not-get', `${api}/issues`, { number: 1, title: 't' }, { method: 'POST', status: 201 });
  put('006_comments_old.json', 'duplicate', `${api}/issues/1/comments`, [], { recorded_at: '2014-01-01T00:00:00Z' });
  put('007_comments.json', 'no-items', `${api}/issues/1/comments`, [], { recorded_at: '2020-01-01T00:00:00Z' });
  put('008_issue_is_pr.json', 'no-items', `${api}/issues/${String(prs[0]!['number'])}`, prs[0]!);
  put('009_issues_all_prs.json', 'measured', `${api}/issues?state=closed`, prs.slice(0, 4));
  return { root, expected };
}

describe('every cause a recording is not measured for, named with its file', () => {
  it('the library accounts for each recording once: measured, or not measured with its cause and reason', async () => {
    const { root, expected } = accountingCorpus();
    const accounts: RecordingAccount[] = [];
    const skipped: unknown[] = [];
    const datasets = await loadCorpusDatasets(root, { onSkip: (s) => skipped.push(s), onRecording: (a) => accounts.push(a) });
    assert.deepEqual(skipped, []);
    assert.deepEqual(
      Object.fromEntries(accounts.map((a) => [a.file, a.measured ? 'measured' : a.cause])),
      expected,
      JSON.stringify(accounts, null, 1),
    );
    const why = new Map(accounts.filter((a) => !a.measured).map((a) => [a.file, a.measured ? '' : a.reason]));
    assert.match(
      why.get('github/acme__x/006_comments_old.json')!,
      /^the same request as github\/acme__x\/007_comments\.json, which answers it/,
    );
    assert.match(why.get('github/acme__x/008_issue_is_pr.json')!, /^a pull request, read through the issues API/);
    assert.match(why.get('github/acme__x/004_issue_404.json')!, /^answered 404/);
    assert.deepEqual(
      datasets.map((d) => [d.kind, d.label, d.result.items.length]),
      [
        ['issues', 'GET /repos/acme/x/issues?state=all&per_page=5', 10],
        ['merge_requests', 'GET /repos/acme/x/issues?state=closed', 4],
      ],
    );
  });

  it('the report: one line counts each, --details and Markdown list every file with its reason; the result checks', async () => {
    const { root } = accountingCorpus();
    const out = join(root, '..', `${root.split('/').at(-1)}-run.json`);
    roots.push(out);
    const args = ['benchmark', '--corpus', root, '--runs', '1', '--levels', 'minimal', '--formats', 'toon'];
    const r = await runCli([...args, '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    const line = /^Recordings: .*$/m.exec(r.stdout.replace(/\n {2}(?=\S)/g, ' '))?.[0];
    assert.equal(
      line,
      'Recordings: 3 of 10 corpus recordings measured (they feed the datasets), 7 not measured, 0 skipped. Not measured: 2 with no items devboy measures, 1 not a GET request, 1 an error answer, 1 the same request as another recording, 1 not a list devboy reads, 1 a later API page no first API page leads to; each with its file and reason under --details (or --json).',
    );
    const result = JSON.parse(readFileSync(out, 'utf8')) as BenchmarkResult;
    assert.deepEqual(result.recordings, { measured: 3, unmeasured: 7, skipped: 0 });
    assert.equal(result.unmeasured?.length, 7);
    const details = EXPORTERS.table.render({ result }, { color: false, details: true, width: 200 });
    for (const u of result.unmeasured!) assert.ok(details.includes(`  ${u.file}: ${u.reason}`), u.file);
    const markdown = EXPORTERS.markdown.render({ result }, {});
    assert.match(markdown, /^### Recordings$/m);
    for (const u of result.unmeasured!) assert.ok(markdown.includes(`- \`${u.file}\`: `), u.file);
    // Counts that disagree with the lists are refused when a result is read back.
    assert.throws(() => checkResultFields({ ...result, recordings: { ...result.recordings!, unmeasured: 6 } }), /recordings\.unmeasured/);
  });
});

describe('a list of pull requests from the issues or search API is measured as merge requests', () => {
  /** A server playing GitHub live, answering every request with the recorded list. */
  async function run(url: string, body: JsonValue): Promise<{ kind?: string; items: MergeRequest[]; alongside?: MergeRequest[] }> {
    const entries: CorpusEntry[] = [
      {
        file: 'github/acme__x/000.json',
        exchange: {
          provider: 'github',
          project: 'acme__x',
          request: { method: 'GET', url },
          response: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body },
          provenance: {},
        },
      },
    ];
    const server = await ReplayServer.start({ entries });
    try {
      const client = await openClient('github', { apiUrl: server.url, token: 'x' });
      const call = PROVIDERS.github.classify(url)[0]!;
      const result = await client.run(call, { maxPages: 10, maxItems: 100, canFetch: () => true });
      return {
        ...(result.kind ? { kind: result.kind } : {}),
        items: result.items as MergeRequest[],
        ...(result.alongside ? { alongside: result.alongside.items as MergeRequest[] } : {}),
      };
    } finally {
      await server.close();
    }
  }

  it('from the search API: every item a merge request with its number, title, state and author', async () => {
    const merged = prs.find((p) => ((p['pull_request'] as JsonObject)['merged_at'] ?? null) !== null);
    const list = prs.slice(0, 6);
    const result = await run('https://api.github.com/search/issues?q=is:pr', { total_count: 6, incomplete_results: false, items: list });
    assert.equal(result.kind, 'merge_requests');
    assert.deepEqual(
      result.items.map((m) => m.key),
      list.map((p) => `pr#${String(p['number'])}`),
    );
    for (const [i, m] of result.items.entries()) {
      assert.equal(m.title, list[i]!['title']);
      assert.equal(m.author?.username, (list[i]!['user'] as JsonObject)['login']);
    }
    if (merged) {
      const r = await run('https://api.github.com/search/issues?q=is:merged', {
        total_count: 1,
        incomplete_results: false,
        items: [merged],
      });
      assert.equal(r.items[0]!.state, 'merged');
    }
  });

  it('from the issues API; a mixed list is an issues list, and its pull requests merge requests beside it (test/mixed-lists.test.ts)', async () => {
    const pullsOnly = await run('https://api.github.com/repos/acme/x/issues?state=all', prs.slice(0, 3));
    assert.equal(pullsOnly.kind, 'merge_requests');
    assert.equal(pullsOnly.items.length, 3);
    const mixed = await run('https://api.github.com/repos/acme/x/issues?state=all', [...prs.slice(0, 3), ...issues.slice(0, 2)]);
    assert.equal(mixed.kind, undefined);
    assert.equal(mixed.items.length, 2);
    assert.deepEqual(
      mixed.alongside?.map((m) => m.key),
      prs.slice(0, 3).map((p) => `pr#${String(p['number'])}`),
    );
  });
});
