import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DataError, DevboyError } from '../src/errors.js';
import { loadCorpusDatasets, loadLiveDatasets } from '../src/providers/load.js';
import type { ProgressEvent } from '../src/providers/types.js';
import { readCorpus } from '../src/replay/corpus.js';
import { ReplayServer, type Fault } from '../src/replay/server.js';
import { CORPUS_DIR, instantSleep, rejection } from './helpers/recordings.js';

const SECRET = 'ghp_failureTESTtoken987654321';
const ISSUES = '/repos/betamaxpy/betamax/issues';

async function failWith(faults: Fault[], http: object = {}): Promise<DevboyError> {
  const { sleep } = instantSleep();
  const err = await loadCorpusDatasets(CORPUS_DIR, {
    provider: 'github',
    project: 'betamaxpy__betamax',
    faults,
    http: { sleep, ...http },
  }).then(
    () => assert.fail('expected a failure'),
    (e: unknown) => e,
  );
  assert.ok(err instanceof DataError, `a DataError, got ${String(err)}`);
  assert.equal(err.exitCode, 1);
  assert.doesNotMatch(err.oneLine(), /\n/);
  return err;
}

describe('GitHub failures, through Octokit and the replay server', () => {
  it('401: says which variable to set', async () => {
    const err = await failWith([{ status: 401, body: { message: 'Bad credentials' } }]);
    assert.match(
      err.message,
      /^GitHub requires credentials \(401\) for GET \/repos\/betamaxpy\/betamax\/issues\?.*: set GITHUB_TOKEN \(or --token\)$/,
    );
  });

  it('401 with a token: the token is rejected, and never shown', async () => {
    const entries = (await readCorpus(CORPUS_DIR, { provider: 'github', project: 'betamaxpy__betamax' }))[0]!.entries;
    const server = await ReplayServer.start({ entries, authorize: () => false });
    try {
      const err = await rejection(
        loadLiveDatasets({ provider: 'github', owner: 'betamaxpy', repo: 'betamax', host: server.url, token: SECRET, env: {} }),
      );
      assert.match(err.message, /GitHub rejected the credentials \(401\).*set GITHUB_TOKEN \(or --token\) to a valid token/);
      assert.ok(!err.message.includes(SECRET));
      assert.equal(server.received[0]!.headers.authorization, `token ${SECRET}`, 'the token was sent to the server');
    } finally {
      await server.close();
    }
  });

  it('403 without rate-limit headers: access denied, not retried', async () => {
    const err = await failWith([{ status: 403, body: { message: 'Resource not accessible by integration' }, times: Infinity }]);
    assert.match(err.message, /GitHub denied access \(403\) for GET .*: Resource not accessible by integration: set GITHUB_TOKEN/);
  });

  it('404: no such repository, with the closest recorded URL', async () => {
    const entries = (await readCorpus(CORPUS_DIR, { provider: 'github', project: 'betamaxpy__betamax' }))[0]!.entries;
    const server = await ReplayServer.start({ entries });
    try {
      const err = await rejection(
        loadLiveDatasets({ provider: 'github', owner: 'nobody', repo: 'nothing', host: server.url, token: SECRET, env: {} }),
      );
      assert.match(
        err.message,
        /^no such repository nobody\/nothing on GitHub, or the token cannot see it \(404 for GET .*closest recorded: GET https:\/\/api\.github\.com\/repos\/betamaxpy\/betamax\/issues/,
      );
      assert.ok(!err.message.includes(SECRET));
    } finally {
      await server.close();
    }
  });

  it('429 with Retry-After: waits as told, then carries on', async () => {
    const { sleep, waits } = instantSleep();
    const events: ProgressEvent[] = [];
    const datasets = await loadCorpusDatasets(CORPUS_DIR, {
      provider: 'github',
      project: 'betamaxpy__betamax',
      faults: [{ status: 429, headers: { 'retry-after': '7' }, path: ISSUES }],
      http: { sleep },
      onProgress: (e) => events.push(e),
    });
    assert.deepEqual(waits, [7000]);
    // Betamax's two issue lists, and the pull requests each mixes in.
    assert.equal(datasets.length, 4);
    const retry = events.find((e) => e.type === 'retry');
    assert.ok(retry && retry.type === 'retry' && retry.reason === 'rate-limit' && retry.status === 429 && retry.waitMs === 7000);
  });

  it('429 that does not clear: bounded retries, then a clear error', async () => {
    const { sleep, waits } = instantSleep();
    const err = await rejection(
      loadCorpusDatasets(CORPUS_DIR, {
        provider: 'github',
        project: 'betamaxpy__betamax',
        faults: [{ status: 429, headers: { 'retry-after': '1' }, times: Infinity }],
        http: { sleep, maxRetries: 2 },
      }),
    );
    assert.deepEqual(waits, [1000, 1000]);
    assert.match(err.message, /^GitHub rate limit \(429\) for GET .*: still limited after 2 retries$/);
  });

  it('secondary rate limit (403, x-ratelimit-remaining 0): waits until X-RateLimit-Reset', async () => {
    const { sleep, waits } = instantSleep();
    const now = Date.UTC(2026, 0, 1);
    const reset = String(now / 1000 + 5);
    await loadCorpusDatasets(CORPUS_DIR, {
      provider: 'github',
      project: 'betamaxpy__betamax',
      faults: [
        {
          status: 403,
          headers: { 'x-ratelimit-remaining': '0', 'x-ratelimit-reset': reset },
          body: { message: 'You have exceeded a secondary rate limit' },
        },
      ],
      http: { sleep, now: () => now },
    });
    assert.deepEqual(waits, [5000]);
  });

  it('a reset later than --max-wait fails at once instead of waiting', async () => {
    const err = await failWith([{ status: 429, headers: { 'retry-after': '3600' } }], { maxWaitMs: 60_000 });
    assert.match(err.message, /the limit resets in 60 min, longer than the 60 s devboy waits \(raise --max-wait or try later\)/);
  });

  it('5xx: retries with growing backoff, then succeeds', async () => {
    const { sleep, waits } = instantSleep();
    await loadCorpusDatasets(CORPUS_DIR, {
      provider: 'github',
      project: 'betamaxpy__betamax',
      faults: [{ status: 502, times: 2 }],
      http: { sleep },
    });
    assert.deepEqual(waits, [1000, 2000]);
  });

  it('5xx that persists: a clear error after the bounded attempts', async () => {
    const err = await failWith([{ status: 500, times: Infinity }]);
    assert.match(err.message, /^GitHub server error 500 for GET .* after 4 attempts/);
  });

  it('a server that never answers: times out per attempt, bounded', async () => {
    const err = await failWith([{ hang: true, times: Infinity }], { timeoutMs: 150, maxRetries: 1 });
    assert.match(err.message, /^GitHub did not answer GET \/repos\/betamaxpy\/betamax\/issues.* within 150 ms \(2 attempts\)$/);
  });

  it('a malformed body: one clear error', async () => {
    const err = await failWith([{ malformed: true, path: ISSUES }]);
    assert.match(
      err.message,
      /^malformed response from GitHub for GET .*\/repos\/betamaxpy\/betamax\/issues.*: expected the list of issues to be a JSON array, got text that is not JSON$/,
    );
  });

  it('nothing listening: cannot reach, after bounded retries', async () => {
    const { sleep } = instantSleep();
    const server = await ReplayServer.start({ entries: [] });
    const url = server.url;
    await server.close();
    const err = await rejection(
      loadLiveDatasets({ provider: 'github', owner: 'a', repo: 'b', host: url, env: {}, http: { sleep, maxRetries: 1 } }),
    );
    assert.match(
      err.message,
      /^cannot reach GitHub: GET http:\/\/127\.0\.0\.1:\d+\/repos\/a\/b\/issues.* failed \(ECONNREFUSED\) after 2 attempts$/,
    );
  });
});
