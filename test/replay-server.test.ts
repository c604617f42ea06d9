import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readCorpus } from '../src/replay/corpus.js';
import type { CorpusEntry } from '../src/replay/exchange.js';
import { ReplayServer } from '../src/replay/server.js';
import { CORPUS_DIR } from './helpers/recordings.js';

let betamax: CorpusEntry[];
let gitlab: CorpusEntry[];

before(async () => {
  betamax = (await readCorpus(CORPUS_DIR, { provider: 'github', project: 'betamaxpy__betamax' }))[0]!.entries;
  gitlab = (await readCorpus(CORPUS_DIR, { provider: 'gitlab', project: 'gitlab-org__gitlab-foss' }))[0]!.entries;
});

describe('replay server', () => {
  let server: ReplayServer;
  before(async () => {
    server = await ReplayServer.start({ entries: betamax });
  });
  after(() => server.close());

  it('listens on loopback and serves the recorded body and status', async () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.url}/repositories/11439734`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { id: number }).id, 11439734);
  });

  it('rewrites Link URLs to itself, so following them stays on the recordings', async () => {
    const first = await fetch(`${server.url}/repos/betamaxpy/betamax/issues?state=all&per_page=100`);
    const link = first.headers.get('link')!;
    assert.ok(link.includes(`<${server.url}/repositories/11439734/issues?state=all&per_page=100&page=2>; rel="next"`), link);
    const next = /<([^>]+)>; rel="next"/.exec(link)![1]!;
    const second = await fetch(next);
    assert.equal(second.status, 200);
    assert.equal(
      second.headers.get('x-devboy-recording'),
      'github/betamaxpy__betamax/004_GET_repositories_11439734_issues_state_all_per_page_100_page_2.json',
    );
    assert.equal(((await second.json()) as unknown[]).length, 50);
  });

  it('answers a request with no recording with 404 naming the closest recorded URL', async () => {
    const res = await fetch(`${server.url}/repos/betamaxpy/betamax/pulls?state=all`);
    assert.equal(res.status, 404);
    const { message } = (await res.json()) as { message: string };
    assert.match(
      message,
      /no recording for GET \/repos\/betamaxpy\/betamax\/pulls\?state=all; closest recorded: GET https:\/\/api\.github\.com\/repos\/betamaxpy\/betamax\/issues/,
    );
  });

  it('answers queued faults first: status with headers, malformed body, then normal again', async () => {
    server.injectFault({ status: 429, headers: { 'retry-after': '7' }, path: '/repositories/' });
    server.injectFault({ malformed: true, path: '/repositories/' });
    const limited = await fetch(`${server.url}/repositories/11439734`);
    assert.equal(limited.status, 429);
    assert.equal(limited.headers.get('retry-after'), '7');
    const broken = await fetch(`${server.url}/repositories/11439734`);
    assert.equal(broken.status, 200);
    await assert.rejects(broken.json() as Promise<unknown>, SyntaxError);
    assert.equal((await fetch(`${server.url}/repositories/11439734`)).status, 200);
  });

  it('can hang until the client gives up, and still closes', async () => {
    const hanging = await ReplayServer.start({ entries: betamax, faults: [{ hang: true }] });
    await assert.rejects(fetch(`${hanging.url}/repositories/11439734`, { signal: AbortSignal.timeout(100) }), /TimeoutError|aborted/i);
    await hanging.close();
  });

  it('can demand credentials like a live API', async () => {
    const guarded = await ReplayServer.start({ entries: betamax, authorize: (h) => h.authorization === 'token good' });
    assert.equal((await fetch(`${guarded.url}/repositories/11439734`)).status, 401);
    assert.equal((await fetch(`${guarded.url}/repositories/11439734`, { headers: { authorization: 'token good' } })).status, 200);
    await guarded.close();
  });

  it("replaces GitLab's recorded [GITLAB_API_ENDPOINT] placeholder in Link headers", async () => {
    const gl = await ReplayServer.start({ entries: gitlab });
    const res = await fetch(`${gl.url}/api/v4/projects/13083/issues?labels=release`);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get('x-devboy-recorded-url'), 'https://gitlab.com/api/v3/projects/13083/issues?labels=release');
    assert.match(res.headers.get('link')!, new RegExp(`^<${gl.url}/api/v4/projects/13083/issues\\?page=1&per_page=0>; rel="first"`));
    await gl.close();
  });
});
