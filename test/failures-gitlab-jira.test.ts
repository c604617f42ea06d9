import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DataError, UsageError } from '../src/errors.js';
import { loadCorpusDatasets, loadLiveDatasets } from '../src/providers/load.js';
import { readCorpus } from '../src/replay/corpus.js';
import { ReplayServer, type Fault } from '../src/replay/server.js';
import { CORPUS_DIR, instantSleep, rejection } from './helpers/recordings.js';

const SECRET = 'glpat-failureTESTtoken12345';
const JIRA_SECRET = 'ATATTjiraFAILUREtoken6789';

async function entriesOf(provider: string, project: string) {
  return (await readCorpus(CORPUS_DIR, { provider, project }))[0]!.entries;
}

async function loadFailing(provider: 'gitlab' | 'jira', project: string, faults: Fault[], http: object = {}): Promise<DataError> {
  const { sleep } = instantSleep();
  const err = await loadCorpusDatasets(CORPUS_DIR, { provider, project, faults, http: { sleep, ...http } }).then(
    () => assert.fail('expected a failure'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof DataError, String(err));
  assert.equal(err.exitCode, 1);
  return err;
}

describe('GitLab failures, through Gitbeaker and the replay server', () => {
  it('401 with a token: names GITLAB_TOKEN and GITLAB_HOST, never the token', async () => {
    const server = await ReplayServer.start({ entries: await entriesOf('gitlab', 'gitlab-org__gitlab-foss'), authorize: () => false });
    try {
      const err = await rejection(
        loadLiveDatasets({ provider: 'gitlab', owner: 'gitlab-org', repo: 'gitlab-foss', host: server.url, token: SECRET, env: {} }),
      );
      assert.match(
        err.message,
        /^GitLab rejected the credentials \(401\) for GET .*\/api\/v4\/projects\/gitlab-org%2Fgitlab-foss\/issues.*: set GITLAB_TOKEN \(or --token\), and GITLAB_HOST for a self-hosted GitLab to a valid token$/,
      );
      assert.ok(!err.message.includes(SECRET));
      assert.equal(server.received[0]!.headers['private-token'], SECRET);
    } finally {
      await server.close();
    }
  });

  it('404: no such project', async () => {
    const server = await ReplayServer.start({ entries: await entriesOf('gitlab', 'gitlab-org__gitlab-foss') });
    try {
      const err = await rejection(loadLiveDatasets({ provider: 'gitlab', owner: 'acme', repo: 'nothing', host: server.url, env: {} }));
      assert.match(err.message, /^no such project acme\/nothing on this GitLab, or the token cannot see it \(404 for GET /);
    } finally {
      await server.close();
    }
  });

  it("429: waits per Retry-After instead of Gitbeaker's ten quick retries", async () => {
    const { sleep, waits } = instantSleep();
    const entries = await entriesOf('gitlab', 'rust-lang__triagebot__as-gitlab');
    const datasets = await loadCorpusDatasets(CORPUS_DIR, {
      provider: 'gitlab',
      project: 'rust-lang__triagebot__as-gitlab',
      faults: [{ status: 429, headers: { 'retry-after': '2' }, path: '/2469/diffs' }],
      http: { sleep },
    });
    assert.deepEqual(waits, [2000]);
    assert.equal(datasets.length, entries.length);
  });

  it('502 that persists: exactly the bounded number of attempts, then a clear error', async () => {
    const entries = await entriesOf('gitlab', 'rust-lang__triagebot__as-gitlab');
    const server = await ReplayServer.start({ entries, faults: [{ status: 502, times: Infinity }] });
    const { sleep } = instantSleep();
    try {
      const err = await rejection(
        loadLiveDatasets({
          provider: 'gitlab',
          owner: 'rust-lang',
          repo: 'triagebot',
          host: server.url,
          env: {},
          http: { sleep, maxRetries: 2 },
        }),
      );
      assert.match(err.message, /^GitLab server error 502 for GET .* after 3 attempts/);
      assert.equal(server.received.length, 3);
    } finally {
      await server.close();
    }
  });

  it('a malformed body and a hang: one clear error each', async () => {
    const malformed = await loadFailing('gitlab', 'rust-lang__triagebot__as-gitlab', [{ malformed: true }]);
    assert.match(
      malformed.message,
      /^malformed response from GitLab for GET .*\/merge_requests\/\d+\/diffs.*: the body is not valid JSON$/,
    );
    const hang = await loadFailing('gitlab', 'rust-lang__triagebot__as-gitlab', [{ hang: true, times: Infinity }], {
      timeoutMs: 150,
      maxRetries: 0,
    });
    assert.match(hang.message, /^GitLab did not answer GET .* within 150 ms \(1 attempt\)$/);
  });
});

describe('Jira failures, through jira.js and the replay server', () => {
  it('401 with email and API token: names the variables, never the token or the basic credentials', async () => {
    const server = await ReplayServer.start({ entries: await entriesOf('jira', 'AC'), authorize: () => false });
    try {
      const err = await rejection(
        loadLiveDatasets({ provider: 'jira', project: 'AC', host: server.url, email: 'me@example.com', token: JIRA_SECRET, env: {} }),
      );
      assert.match(
        err.message,
        /^Jira rejected the credentials \(401\) .*set JIRA_EMAIL and JIRA_API_TOKEN \(Jira Cloud\) or JIRA_PAT \(Server\/Data Center\), with JIRA_HOST/,
      );
      const basic = Buffer.from(`me@example.com:${JIRA_SECRET}`).toString('base64');
      assert.equal(server.received[0]!.headers.authorization, `Basic ${basic}`);
      assert.ok(!err.message.includes(JIRA_SECRET) && !err.message.includes(basic));
    } finally {
      await server.close();
    }
  });

  it('a PAT alone is sent as a Bearer token (Server/Data Center)', async () => {
    const server = await ReplayServer.start({ entries: await entriesOf('jira', 'AC'), authorize: () => false });
    try {
      await loadLiveDatasets({ provider: 'jira', project: 'AC', host: server.url, env: { JIRA_PAT: JIRA_SECRET } }).catch(() => undefined);
      assert.equal(server.received[0]!.headers.authorization, `Bearer ${JIRA_SECRET}`);
    } finally {
      await server.close();
    }
  });

  it('500 once, then recovered; 429 with an HTTP-date Retry-After', async () => {
    const { sleep, waits } = instantSleep();
    const now = Date.UTC(2026, 0, 1, 12, 0, 0);
    const datasets = await loadCorpusDatasets(CORPUS_DIR, {
      provider: 'jira',
      project: 'AC',
      faults: [
        { status: 500, path: '/search' },
        { status: 429, headers: { 'retry-after': new Date(now + 4000).toUTCString() }, path: '/issue/AC-1071' },
      ],
      http: { sleep, now: () => now },
    });
    assert.deepEqual(waits, [1000, 4000]);
    assert.ok(datasets.some((d) => d.label.includes('/search?')));
  });

  it('a malformed search page and a hang: one clear error each', async () => {
    const malformed = await loadFailing('jira', 'AC', [{ malformed: true, path: '/search' }]);
    assert.match(
      malformed.message,
      /^malformed response from Jira for GET .*\/rest\/api\/2\/search.*: expected the issues page to be a JSON object, got text that is not JSON$/,
    );
    const hang = await loadFailing('jira', 'AC', [{ hang: true, times: Infinity }], { timeoutMs: 150, maxRetries: 1 });
    assert.match(hang.message, /^Jira did not answer GET .* within 150 ms \(2 attempts\)$/);
  });

  it('no site configured: a usage error (exit 2)', async () => {
    const err = await loadLiveDatasets({ provider: 'jira', project: 'AC', env: {} }).catch((e: unknown) => e);
    assert.ok(err instanceof UsageError);
    assert.equal(err.exitCode, 2);
    assert.match(err.message, /set JIRA_HOST or --host/);
  });
});
