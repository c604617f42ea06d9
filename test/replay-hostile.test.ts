import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { loadCorpusDatasets } from '../src/providers/load.js';
import { PROVIDER_NAMES, PROVIDERS } from '../src/providers/registry.js';
import { scanCorpus } from '../src/replay/corpus.js';
import type { CorpusEntry } from '../src/replay/exchange.js';
import { ReplayServer } from '../src/replay/server.js';
import { runCli } from './helpers/cli.js';
import { makeHostileCorpus, sourceItems } from './helpers/hostile-corpus.js';
import { JIRA_EMAIL, JIRA_TOKEN, startJiraLive } from './helpers/live-apis.js';

// Issue 21 item 6: one recording crashed the whole replay with a stack trace, even with
// --allow-skipped (Node's writeHead threw on a header name with a space, a status 42, and a
// recorded URL or file name outside Latin-1 in devboy's own replay headers).

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

function entry(file: string, url: string, response: Partial<CorpusEntry['exchange']['response']> = {}): CorpusEntry {
  return {
    file,
    exchange: {
      provider: 'github',
      project: file.split('/')[1] ?? '',
      request: { method: 'GET', url },
      response: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body: [], ...response },
      provenance: {},
    },
  };
}

describe('the replay server never passes unchecked text to writeHead', () => {
  it('answers a recording it cannot send with an error naming the file and why, and goes on serving', async () => {
    const server = await ReplayServer.start({
      entries: [
        entry('github/a/1.json', 'https://api.github.com/a/space', { headers: { 'x bad header': 'v' } }),
        entry('github/a/2.json', 'https://api.github.com/a/s42', { status: 42 }),
        entry('github/a/3.json', 'https://api.github.com/a/crlf', { headers: { 'x-a': 'one\r\nx-b: two' } }),
        entry('github/a/4.json', 'https://api.github.com/a/wide', { headers: { 'x-a': '日本語' } }),
        entry('github/a/5.json', 'https://api.github.com/a/link', { headers: { link: '<https://exa mple.com/x>; rel="next"' } }),
        entry('github/ünïcødé_€/6.json', 'https://api.github.com/repos/acme/日本語/issues'),
      ],
    });
    try {
      const cases: [string, RegExp][] = [
        ['/a/space', /cannot answer with github\/a\/1\.json: response header "x bad header" is not a valid HTTP header name/],
        [
          '/a/s42',
          /cannot answer with github\/a\/2\.json: "response\.status" must be an HTTP status, a whole number from 200 to 599, got 42/,
        ],
        ['/a/crlf', /github\/a\/3\.json: response header "x-a" has a value HTTP cannot carry \(a line break\)/],
        ['/a/wide', /github\/a\/4\.json: response header "x-a" has a value HTTP cannot carry \(a character outside Latin-1\)/],
      ];
      for (const [path, message] of cases) {
        const res = await fetch(`${server.url}${path}`);
        assert.equal(res.status, 502, path);
        assert.equal(res.headers.get('x-devboy-replay'), 'bad-recording', path);
        assert.match(((await res.json()) as { message: string }).message, message, path);
      }
      // A Link the server cannot rewrite is passed on as recorded: the client then refuses the foreign URL.
      assert.equal((await fetch(`${server.url}/a/link`)).status, 200);
      const wide = await fetch(`${server.url}/repos/acme/${encodeURIComponent('日本語')}/issues`);
      assert.equal(wide.status, 200);
      assert.equal(decodeURI(wide.headers.get('x-devboy-recording')!), 'github/ünïcødé_€/6.json');
      assert.equal(decodeURIComponent(wide.headers.get('x-devboy-recorded-url')!), 'https://api.github.com/repos/acme/日本語/issues');
    } finally {
      await server.close();
    }
  });
});

describe('a recording whose status or headers HTTP cannot carry is skipped and named when the corpus is read', () => {
  it('status 42, a header name with a space, a header value with a line break', async () => {
    const root = mkdtempSync(join(tmpdir(), 'devboy-badhead-'));
    roots.push(root);
    const dir = join(root, 'github', 'acme__x');
    mkdirSync(dir, { recursive: true });
    const write = (name: string, response: Record<string, unknown>) =>
      writeFileSync(
        join(dir, name),
        JSON.stringify({
          request: { method: 'GET', url: 'https://api.github.com/repos/acme/x/issues' },
          response: { status: 200, headers: {}, body: [], ...response },
        }),
      );
    write('1_s42.json', { status: 42 });
    write('2_s200_5.json', { status: 200.5 });
    write('3_space.json', { headers: { 'X Bad Header': 'v' } });
    write('4_crlf.json', { headers: { 'x-a': 'one\ntwo' } });
    write('5_ok.json', {});
    const { skipped, projects } = await scanCorpus(root);
    assert.deepEqual(
      skipped.map((s) => [s.file.split('/').at(-1), s.reason]),
      [
        ['1_s42.json', 'not a recorded exchange: "response.status" must be an HTTP status, a whole number from 200 to 599, got 42'],
        ['2_s200_5.json', 'not a recorded exchange: "response.status" must be an HTTP status, a whole number from 200 to 599, got 200.5'],
        ['3_space.json', 'not a recorded exchange: response header "x bad header" is not a valid HTTP header name'],
        ['4_crlf.json', 'not a recorded exchange: response header "x-a" has a value HTTP cannot carry (a line break)'],
      ],
    );
    assert.deepEqual(
      projects.flatMap((p) => p.entries.map((e) => e.file)),
      ['github/acme__x/5_ok.json'],
    );
  });
});

describe('a recorded URL whose path has a malformed percent escape', () => {
  it('is planned as no call of any provider, not a URIError', () => {
    for (const url of [
      'https://api.github.com/repos/acme/%ZZ/issues',
      'https://api.github.com/repos/acme/%E6%97/issues',
      'https://gitlab.com/api/v4/projects/a%ZZ/issues',
      'https://jira.example.com/rest/api/2/issue/K-%ZZ',
      'https://jira.example.com/rest/api/2/issue/K-%ZZ/comment',
    ])
      for (const provider of PROVIDER_NAMES) assert.deepEqual(PROVIDERS[provider].classify(url), [], `${provider} ${url}`);
  });
});

describe("devboy's own recording of a project named outside Latin-1", () => {
  it("record -p jira --project 'PRØJ€CT', then benchmark --corpus of it: measured, no crash", async () => {
    const out = mkdtempSync(join(tmpdir(), 'devboy-prj-'));
    roots.push(out);
    const live = await startJiraLive();
    try {
      const env = { JIRA_HOST: live.url, JIRA_EMAIL, JIRA_API_TOKEN: JIRA_TOKEN };
      const rec = await runCli(['record', '-p', 'jira', '--project', 'PRØJ€CT', '--limit', '5', '--details', '1', '--out-dir', out], {
        env,
      });
      assert.equal(rec.code, 0, rec.stderr);
    } finally {
      await live.close();
    }
    assert.deepEqual(readdirSync(join(out, 'jira')), ['PRØJ€CT']);
    const result = join(out, 'run.json');
    const r = await runCli(['benchmark', '--corpus', out, '--runs', '1', '--levels', 'minimal', '--formats', 'toon', '-o', result]);
    assert.equal(r.code, 0, r.stderr);
    const saved = JSON.parse(readFileSync(result, 'utf8')) as BenchmarkResult;
    assert.deepEqual(saved.skipped, []);
    assert.ok(saved.datasets.length > 0 && saved.datasets.every((d) => d.project === 'PRØJ€CT'));
  });
});

describe('a held-out corpus with hostile names and headers', () => {
  const root = makeHostileCorpus();
  roots.push(root);

  it('the library reads it through: names outside Latin-1 are measured, bad recordings are skipped and named', async () => {
    const skipped: { file: string; reason: string }[] = [];
    const datasets = await loadCorpusDatasets(root, { onSkip: (s) => skipped.push(s) });
    const projects = new Set(datasets.map((d) => d.project));
    assert.ok(projects.has('acme__日本語'), [...projects].join(', '));
    assert.ok(projects.has('ünïcødé_€'), [...projects].join(', '));
    const japanese = datasets.find((d) => d.project === 'acme__日本語')!;
    assert.equal(japanese.label, `GET /repos/acme/${encodeURIComponent('日本語')}/issues?state=all`);
    assert.deepEqual(japanese.requests, ['https://api.github.com/repos/acme/日本語/issues?state=all']);
    assert.equal(
      japanese.result.items.length,
      sourceItems()
        .filter((i) => !('pull_request' in i))
        .slice(0, 5).length,
    );
    const skippedFiles = skipped.map((s) => s.file).sort();
    for (const file of ['github/acme__hdr/000_GET_repos_acme_hdr_issues.json', 'github/acme__s42/000_GET_repos_acme_s42_issues.json'])
      assert.ok(skippedFiles.includes(file), `${file} not in ${skippedFiles.join(', ')}`);
  });

  it('devboy benchmark --allow-skipped completes with no stack trace', async () => {
    const out = join(root, '..', `${root.split('/').at(-1)}.json`);
    roots.push(out);
    const args = ['benchmark', '--corpus', root, '--allow-skipped', '--runs', '1', '--levels', 'minimal', '--formats', 'toon'];
    const r = await runCli([...args, '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    assert.doesNotMatch(r.stderr + r.stdout, /\n\s+at .*:\d+:\d+\)?\n/);
    const saved = JSON.parse(readFileSync(out, 'utf8')) as BenchmarkResult;
    const reasons = new Map((saved.skipped ?? []).map((s) => [s.file, s.reason]));
    assert.match(reasons.get('github/acme__hdr/000_GET_repos_acme_hdr_issues.json') ?? '', /response header "x bad header"/);
    assert.match(reasons.get('github/acme__s42/000_GET_repos_acme_s42_issues.json') ?? '', /"response\.status" .* got 42$/);
    assert.ok(saved.datasets.some((d) => d.project === 'ünïcødé_€'));
  });
});
