import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { runCli } from './helpers/cli.js';
import { playApis, TOKEN, type Played } from './helpers/comment-api.js';
import { FIXTURES } from './helpers/paths.js';

// `devboy compare --comment` against a loopback server that plays the GitHub and GitLab REST APIs
// (the routes Octokit and Gitbeaker call): one comment per pull request, created on the first run
// and updated on the next, the token sent only to that server, and one-line errors.

const result = JSON.parse(readFileSync(join(FIXTURES, 'report', 'small-result.json'), 'utf8')) as BenchmarkResult;

describe('devboy compare --comment', () => {
  let api: Played;
  let dir: string;
  let base: string;
  let worse: string;
  let event: string;
  before(async () => {
    api = await playApis();
    dir = mkdtempSync(join(tmpdir(), 'devboy-comment-'));
    base = join(dir, 'base.json');
    worse = join(dir, 'head.json');
    writeFileSync(base, JSON.stringify(result));
    const grown: BenchmarkResult = structuredClone(result);
    for (const r of grown.rows) if (r.format === 'toon') r.tokens = Math.ceil(r.tokens * 1.1);
    writeFileSync(worse, JSON.stringify(grown));
    event = join(dir, 'event.json');
    writeFileSync(event, JSON.stringify({ action: 'synchronize', number: 7, pull_request: { number: 7 } }));
  });
  after(async () => {
    await api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const github = (extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv => ({
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/widgets',
    GITHUB_EVENT_PATH: event,
    GITHUB_API_URL: api.url,
    GITHUB_TOKEN: TOKEN,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: '99',
    GITLAB_CI: undefined,
    ...extra,
  });

  it('GitHub: the first run creates one comment, the next updates it; the token goes to the configured API only', async () => {
    const first = await runCli(['compare', base, worse, '--markdown', '--comment'], { env: github() });
    assert.equal(first.code, 1, first.stderr);
    assert.match(first.stderr, /created the comment on pull request #7/);
    const [c] = api.comments.get(7)!;
    assert.match(c!.body, /^<!-- devboy compare -->\n## devboy compare\n\n❌ \*\*Failed\*\*/);
    assert.equal(c!.body, first.stdout);

    const second = await runCli(['compare', base, base, '--comment'], { env: github() });
    assert.equal(second.code, 0, second.stderr);
    assert.match(second.stderr, /updated the comment on pull request #7/);
    assert.equal(api.comments.get(7)!.length, 1);
    assert.match(api.comments.get(7)![0]!.body, /✅ \*\*Passed\*\*/);
    assert.ok(api.seen.some((s) => s.method === 'PATCH' && s.path === `/repos/acme/widgets/issues/comments/${c!.id}`));
    for (const s of api.seen) assert.match(s.auth ?? '', new RegExp(TOKEN));
    assert.doesNotMatch(first.stderr + second.stderr + first.stdout, new RegExp(TOKEN));
  });

  it('--comment-on regression: a passing run posts nothing new, but brings an earlier comment up to date', async () => {
    const before = api.seen.length;
    const quiet = await runCli(['compare', base, base, '--comment', '--comment-on', 'regression'], {
      env: github({ GITHUB_EVENT_PATH: writeEvent(8) }),
    });
    assert.equal(quiet.code, 0, quiet.stderr);
    assert.match(quiet.stderr, /no comment on pull request #8 \(passed, --comment-on regression\)/);
    assert.equal(api.comments.get(8)?.length ?? 0, 0);
    assert.deepEqual(
      api.seen.slice(before).map((s) => s.method),
      ['GET'],
    );
    const failing = await runCli(['compare', base, worse, '--comment', '--comment-on', 'regression'], {
      env: github({ GITHUB_EVENT_PATH: writeEvent(8) }),
    });
    assert.equal(failing.code, 1);
    assert.equal(api.comments.get(8)!.length, 1);
    const fixed = await runCli(['compare', base, base, '--comment', '--comment-on', 'regression'], {
      env: github({ GITHUB_EVENT_PATH: writeEvent(8) }),
    });
    assert.match(fixed.stderr, /updated the comment/);
    assert.match(api.comments.get(8)![0]!.body, /Passed/);
  });

  it('a report over the comment limit is cut, pointing to the CI run', async () => {
    const many: BenchmarkResult = structuredClone(result);
    // Ten copies of every row, each grown: about twice the limit before the cut.
    for (let k = 1; k < 10; k++) for (const r of result.rows) many.rows.push({ ...r, label: `${r.label}&copy=${k}` });
    const bigBase = join(dir, 'big-base.json');
    const bigHead = join(dir, 'big-head.json');
    writeFileSync(bigBase, JSON.stringify(many));
    for (const r of many.rows) r.tokens += 50;
    writeFileSync(bigHead, JSON.stringify(many));
    const r = await runCli(['compare', bigBase, bigHead, '--comment'], { env: github({ GITHUB_EVENT_PATH: writeEvent(9) }) });
    assert.equal(r.code, 1);
    const body = api.comments.get(9)![0]!.body;
    assert.ok(body.length <= 65_536, String(body.length));
    assert.match(body, /the full comparison: <https:\/\/github\.example\/acme\/widgets\/actions\/runs\/99>/);
  });

  it('GitLab: a merge-request note, created then updated, with PRIVATE-TOKEN', async () => {
    const env: NodeJS.ProcessEnv = {
      GITHUB_ACTIONS: undefined,
      GITHUB_REPOSITORY: undefined,
      GITHUB_EVENT_PATH: undefined,
      GITLAB_CI: 'true',
      CI_PROJECT_ID: '42',
      CI_MERGE_REQUEST_IID: '3',
      CI_API_V4_URL: `${api.url}/api/v4`,
      GITLAB_TOKEN: TOKEN,
    };
    const first = await runCli(['compare', base, worse, '--comment'], { env });
    assert.equal(first.code, 1, first.stderr);
    assert.match(first.stderr, /created the comment on merge request !3/);
    const second = await runCli(['compare', base, base, '--comment'], { env });
    assert.match(second.stderr, /updated the comment on merge request !3/);
    assert.equal(api.comments.get(3)!.length, 1);
    assert.match(api.comments.get(3)![0]!.body, /^<!-- devboy compare -->/);
    assert.ok(api.seen.some((s) => s.method === 'PUT' && s.path.startsWith('/api/v4/projects/42/merge_requests/3/notes/')));
  });

  it('refuses in one line, before reading the results: no CI, no token, no pull request; a rejected token is one line without the token', async () => {
    const none = await runCli(['compare', base, worse, '--comment'], {
      env: {
        GITHUB_ACTIONS: undefined,
        GITHUB_REPOSITORY: undefined,
        GITHUB_EVENT_PATH: undefined,
        GITLAB_CI: undefined,
        CI_MERGE_REQUEST_IID: undefined,
      },
    });
    assert.equal(none.code, 2);
    assert.match(none.stderr, /^devboy compare: --comment posts to the pull request of a GitHub Actions run .* neither is set\n$/);
    const noToken = await runCli(['compare', base, worse, '--comment'], { env: github({ GITHUB_TOKEN: undefined }) });
    assert.equal(noToken.code, 2);
    assert.match(noToken.stderr, /GITHUB_TOKEN \(or --token\)/);
    const push = join(dir, 'push.json');
    writeFileSync(push, JSON.stringify({ ref: 'refs/heads/main' }));
    const notPr = await runCli(['compare', base, worse, '--comment'], { env: github({ GITHUB_EVENT_PATH: push }) });
    assert.equal(notPr.code, 2);
    assert.match(notPr.stderr, /not about a pull request/);
    const wrong = await runCli(['compare', base, worse, '--comment'], { env: github({ GITHUB_TOKEN: 'wrong-secret-token' }) });
    assert.equal(wrong.code, 4);
    assert.match(
      wrong.stderr,
      /^devboy compare: warning: the comment was not posted: GitHub answered 401 to GET .*Bad credentials.*pull-requests: write\)/m,
    );
    assert.doesNotMatch(wrong.stderr, /wrong-secret-token/);
  });

  it('a token too short to keep out of messages is refused in one line, before anything is sent, and never printed', async () => {
    const seen = api.seen.length;
    for (const [env, args, where] of [
      [{ GITHUB_TOKEN: 't' }, [], 'GITHUB_TOKEN is 1 character long'],
      [{}, ['--token', 'tt'], '--token is 2 characters long'],
    ] as const) {
      const r = await runCli(['compare', base, worse, '--comment', ...args], { env: github(env) });
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, new RegExp(`^devboy compare: ${where}: too short to be an API token[^\\n]*\\n$`));
      assert.doesNotMatch(r.stderr, /\*\*\*|REDACTED/);
    }
    assert.equal(api.seen.length, seen);
  });

  it("a comment that cannot be posted (403: a fork's read-only token) is a warning, not a regression: exit 3 after a pass, 4 after a regression", async () => {
    const readOnly = await playApis({ readOnly: true });
    try {
      const env = github({ GITHUB_API_URL: readOnly.url, GITHUB_EVENT_PATH: writeEvent(21) });
      const passed = await runCli(['compare', base, base, '--markdown', '--comment'], { env });
      assert.equal(passed.code, 3, passed.stderr);
      // The report is whole, the verdict stands, and one warning names the answer, never the token.
      assert.match(passed.stdout, /^<!-- devboy compare -->\n## devboy compare\n\n✅ \*\*Passed\*\*/);
      assert.match(
        passed.stderr,
        /^devboy compare: warning: the comment was not posted: GitHub answered 403 to POST http:\/\/127\.0\.0\.1:\d+\/repos\/acme\/widgets\/issues\/21\/comments: Resource not accessible by integration \(.*a pull request from a fork gets a read-only token.*\); the report is complete and the verdict stands: passed \(exit 3\)$/m,
      );
      assert.equal(passed.stderr.split('\n').filter((l) => l.includes('warning')).length, 1, passed.stderr);
      const failed = await runCli(['compare', base, worse, '--comment'], { env });
      assert.equal(failed.code, 4, failed.stderr);
      assert.match(
        failed.stderr,
        /warning: the comment was not posted: GitHub answered 403 .*; the report is complete and the verdict stands: failed \(exit 4\)$/m,
      );
      assert.match(failed.stdout, /^FAILED: /m);
      assert.doesNotMatch(passed.stdout + passed.stderr + failed.stdout + failed.stderr, new RegExp(TOKEN));
      assert.equal(readOnly.comments.get(21)?.length ?? 0, 0);
    } finally {
      await readOnly.close();
    }
  });

  it('the token goes to the configured API only: a next-page link to another origin is refused, and that origin gets nothing', async () => {
    const foreign = await playApis();
    const lure = await playApis({ nextPage: `${foreign.url}/repos/acme/widgets/issues/7/comments?page=2` });
    try {
      const r = await runCli(['compare', base, worse, '--comment'], { env: github({ GITHUB_API_URL: lure.url }) });
      assert.equal(r.code, 4);
      assert.match(r.stderr, /^devboy compare: warning: the comment was not posted: GitHub: .*refused/m);
      assert.equal(foreign.seen.length, 0);
      assert.ok(lure.seen.length > 0);
      assert.doesNotMatch(r.stderr, new RegExp(TOKEN));
    } finally {
      await foreign.close();
      await lure.close();
    }
  });

  function writeEvent(n: number): string {
    const path = join(dir, `event-${n}.json`);
    writeFileSync(path, JSON.stringify({ pull_request: { number: n } }));
    return path;
  }
});
