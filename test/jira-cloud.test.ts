import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { loadCorpusDatasets, loadLiveDatasets } from '../src/providers/load.js';
import { readCorpus } from '../src/replay/corpus.js';
import { ReplayServer } from '../src/replay/server.js';

/**
 * The shared corpus has no Jira Cloud (REST v3) data, so this test builds a small one in the
 * documented v3 shapes (enhanced search with nextPageToken, ADF bodies, accountId users). It is
 * marked constructed in its provenance, and lives only in a temporary folder.
 */

const SITE = 'https://example.atlassian.net';
const JQL = 'project = CLOUD ORDER BY created DESC';
const ada = {
  accountId: '5b10a2844c20165700ede21g',
  displayName: 'Ada Lovelace',
  active: true,
  avatarUrls: { '48x48': 'https://avatar.example/ada.png' },
};
const adf = (...paragraphs: string[]) => ({
  type: 'doc',
  version: 1,
  content: paragraphs.map((text) => ({ type: 'paragraph', content: [{ type: 'text', text }] })),
});
const issue = (n: number, summary: string) => ({
  id: String(10000 + n),
  key: `CLOUD-${n}`,
  fields: {
    summary,
    description: adf(`${summary}: first paragraph`, 'second paragraph'),
    status: { name: 'In Progress' },
    priority: { name: 'High' },
    labels: ['api'],
    reporter: ada,
    assignee: null,
    created: '2026-01-0' + n + 'T10:00:00.000+0000',
    updated: '2026-01-0' + n + 'T11:00:00.000+0000',
  },
});
const provenance = {
  source_repo: 'devboy tests',
  source_commit: null,
  source_path: 'test/jira-cloud.test.ts',
  license: 'MIT',
  envelope: 'constructed (Jira Cloud REST v3 shape)',
  content: 'constructed',
};

function exchange(url: string, body: unknown) {
  return {
    provider: 'jira',
    project: 'CLOUD',
    request: { method: 'GET', url },
    response: { status: 200, headers: { 'content-type': 'application/json;charset=UTF-8' }, body },
    provenance,
  };
}

const search = `${SITE}/rest/api/3/search/jql?jql=${encodeURIComponent(JQL)}&maxResults=2&fields=*navigable`;
let dir: string;

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'devboy-jira-cloud-'));
  const project = join(dir, 'jira', 'CLOUD');
  await mkdir(project, { recursive: true });
  const files: [string, unknown][] = [
    [
      '000_GET_search_jql.json',
      exchange(search, { issues: [issue(1, 'Login fails'), issue(2, 'Slow search')], nextPageToken: 'CAEaAggD', isLast: false }),
    ],
    ['001_GET_search_jql_page_2.json', exchange(`${search}&nextPageToken=CAEaAggD`, { issues: [issue(3, 'Typo')], isLast: true })],
    [
      '002_GET_issue_CLOUD_1_comment.json',
      exchange(`${SITE}/rest/api/3/issue/CLOUD-1/comment?startAt=0&maxResults=100`, {
        startAt: 0,
        maxResults: 100,
        total: 1,
        comments: [
          {
            id: '900',
            author: ada,
            body: adf('Reproduced on staging.'),
            created: '2026-01-02T09:00:00.000+0000',
            updated: '2026-01-02T09:00:00.000+0000',
          },
        ],
      }),
    ],
  ];
  for (const [name, value] of files) await writeFile(join(project, name), JSON.stringify(value));
});

after(() => rm(dir, { recursive: true, force: true }));

describe('Jira Cloud (REST v3) through jira.js Version3Client', () => {
  it('replays enhanced search by nextPageToken, with ADF turned into text', async () => {
    const [issues, comments] = await loadCorpusDatasets(dir);
    assert.equal(issues!.kind, 'issues');
    assert.deepEqual(
      issues!.result.items.map((i) => (i as { key: string }).key),
      ['CLOUD-1', 'CLOUD-2', 'CLOUD-3'],
    );
    assert.equal(issues!.requests.length, 2);
    assert.deepEqual(issues!.result.pagination, { offset: 0, limit: 4, has_more: false });
    assert.deepEqual(issues!.result.sort_info, {
      sort_by: 'created',
      sort_order: 'desc',
      available_sorts: ['created', 'updated', 'priority', 'key', 'status', 'assignee', 'reporter', 'duedate', 'resolutiondate', 'rank'],
    });
    assert.deepEqual(issues!.result.items[0], {
      key: 'CLOUD-1',
      title: 'Login fails',
      description: 'Login fails: first paragraph\n\nsecond paragraph',
      state: 'In Progress',
      source: 'jira',
      priority: 'High',
      labels: ['api'],
      author: { id: ada.accountId, username: ada.accountId, name: 'Ada Lovelace', avatar_url: 'https://avatar.example/ada.png' },
      assignees: [],
      url: `${SITE}/browse/CLOUD-1`,
      created_at: '2026-01-01T10:00:00.000+0000',
      updated_at: '2026-01-01T11:00:00.000+0000',
    });
    assert.equal(comments!.kind, 'comments');
    assert.equal((comments!.result.items[0] as { body: string }).body, 'Reproduced on staging.');
  });

  it('live mode with REST v3 asks for the fields, stops at the limit and reports the next token', async () => {
    const entries = (await readCorpus(dir))[0]!.entries;
    const server = await ReplayServer.start({ entries });
    try {
      const datasets = await loadLiveDatasets({
        provider: 'jira',
        project: 'CLOUD',
        host: server.url,
        apiVersion: 3,
        limit: 2,
        details: 1,
        env: { JIRA_EMAIL: 'me@example.com', JIRA_API_TOKEN: 'x-token-0123' },
      });
      const search = datasets.find((d) => d.kind === 'issues')!;
      assert.deepEqual(search.result.pagination, { offset: 0, limit: 2, has_more: true, next_cursor: 'CAEaAggD' });
      const first = new URL(server.received[0]!.url, server.url);
      assert.equal(first.pathname, '/rest/api/3/search/jql');
      assert.equal(first.searchParams.get('jql'), JQL);
      assert.equal(first.searchParams.get('fields'), '*navigable');
      assert.equal(datasets.find((d) => d.kind === 'comments')?.result.items.length, 1);
    } finally {
      await server.close();
    }
  });
});
