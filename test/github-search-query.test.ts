import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadCorpusDatasets } from '../src/providers/load.js';
import { openClient as openSession } from '../src/providers/client.js';
import type { RecordedExchange } from '../src/replay/exchange.js';
import { indexRecordings, matchRequest } from '../src/replay/match.js';
import { json, startHostile } from './helpers/hostile-server.js';
import { CORPUS_DIR } from './helpers/recordings.js';

/**
 * A GitHub search query reaches the server exactly as written: Octokit leaves `+` in `q` as it is,
 * and GitHub reads a bare `+` as a space, so `language:C++` would silently become `language:C`.
 */

const SEARCH = 'github/_search/000_GET_search_issues_q_github3_label_3ABug_per_page_100.json';
let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'devboy-search-'));
});

after(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('GitHub search queries', () => {
  it('live: the server receives `language:C++` with its pluses, and spaces as spaces', async () => {
    const server = await startHostile(
      json(200, { total_count: 1, incomplete_results: false, items: [{ number: 1, title: 't', state: 'open' }] }),
    );
    try {
      const session = await openSession('github', { apiUrl: server.url });
      const paging = { maxPages: 1, maxItems: 100, canFetch: () => true };
      const result = await session.run(
        { kind: 'issues', endpoint: 'search_issues', params: { q: 'language:C++ is:open a+b', per_page: '10' } },
        paging,
      );
      assert.equal(result.items.length, 1);
      const query = new URL(server.received[0]!.url, server.url).searchParams;
      assert.equal(query.get('q'), 'language:C++ is:open a+b', server.received[0]!.url);
      assert.equal(query.get('per_page'), '10');
    } finally {
      await server.close();
    }
  });

  it('replay: a recorded `q=language%3AC%2B%2B` is replayed; a recorded `+` still means a space', async () => {
    const recorded = JSON.parse(await readFile(join(CORPUS_DIR, SEARCH), 'utf8')) as RecordedExchange;
    const corpus = join(dir, 'corpus');
    const write = async (project: string, url: string) => {
      await mkdir(join(corpus, 'github', project), { recursive: true });
      const exchange = { ...recorded, project, request: { method: 'GET', url } };
      await writeFile(join(corpus, 'github', project, '000_GET_search.json'), JSON.stringify(exchange));
    };
    await write('plus', 'https://api.github.com/search/issues?q=language%3AC%2B%2B+label%3ABug&per_page=100');
    await write('space', 'https://api.github.com/search/issues?q=github3+label%3ABug&per_page=100');
    const datasets = await loadCorpusDatasets(corpus, { provider: 'github' });
    assert.deepEqual(
      datasets.map((d) => [d.project, d.label, d.result.items.length]),
      [
        ['plus', 'GET /search/issues?q=language%3AC%2B%2B+label%3ABug&per_page=100', 55],
        // The search's 2 pull requests are a dataset of their own (test/mixed-lists.test.ts).
        ['plus', 'GET /search/issues?q=language%3AC%2B%2B+label%3ABug&per_page=100 (its pull requests)', 2],
        ['space', 'GET /search/issues?q=github3+label%3ABug&per_page=100', 55],
        ['space', 'GET /search/issues?q=github3+label%3ABug&per_page=100 (its pull requests)', 2],
      ],
    );
  });

  it('matching decodes both sides as form encoding: `+` is a space, `%2B` a plus', () => {
    const entry = (url: string) => ({
      file: url,
      exchange: { request: { method: 'GET', url }, response: { status: 200, headers: {}, body: [] }, provenance: {} },
    });
    const recordings = indexRecordings([
      entry('https://api.github.com/search/issues?q=language%3AC%2B%2B'),
      entry('https://api.github.com/search/issues?q=a+b'),
    ] as never);
    const answer = (url: string) => matchRequest(recordings, 'GET', url)?.recording.entry.file;
    assert.equal(answer('/search/issues?q=language:C%2B%2B'), 'https://api.github.com/search/issues?q=language%3AC%2B%2B');
    assert.equal(answer('/search/issues?q=language%3Ac%2b%2b'), undefined, 'values compare exactly: c is not C');
    assert.equal(answer('/search/issues?q=language:C++'), undefined, 'a bare + is a space: language:C');
    assert.equal(answer('/search/issues?q=a%20b'), 'https://api.github.com/search/issues?q=a+b');
    assert.equal(answer('/search/issues?q=a%2Bb'), undefined);
  });
});
