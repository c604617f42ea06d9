import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { JsonObject, JsonValue } from '../src/json/types.js';
import { openClient } from '../src/providers/client.js';
import { loadCorpusDatasets } from '../src/providers/load.js';
import { PROVIDERS } from '../src/providers/registry.js';
import type { ProviderName } from '../src/model/index.js';
import type { CorpusEntry } from '../src/replay/exchange.js';
import { ReplayServer } from '../src/replay/server.js';
import { sourceItems } from './helpers/hostile-corpus.js';

// Issue 21 item 8: replay followed a page whose rel="next" is its own URL 100 times (50,000 items
// reported for 500). A URL already fetched in a list is not fetched again, live or replayed.

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});

const issues = sourceItems().filter((i) => !('pull_request' in i));
const jiraIssue = (n: number): JsonObject => ({ key: `K-${n}`, fields: { summary: `issue ${n}`, status: { name: 'Open' } } });

interface Recorded {
  url: string;
  body: JsonValue;
  headers?: Record<string, string>;
}

function entries(provider: ProviderName, recorded: Recorded[]): CorpusEntry[] {
  return recorded.map((r, i) => ({
    file: `${provider}/acme__loop/${String(i).padStart(3, '0')}.json`,
    exchange: {
      provider,
      project: 'acme__loop',
      request: { method: 'GET', url: r.url },
      response: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8', ...r.headers }, body: r.body },
      provenance: {},
    },
  }));
}

/** Each case: recordings whose pagination leads back to a page already read, and the items a reader must get. */
const GH = 'https://api.github.com/repos/acme/loop/issues';
const GL = 'https://gitlab.com/api/v4/projects/acme%2Floop/issues';
const JIRA = 'https://jira.example.com/rest/api/2/search';
const JIRA_CLOUD = 'https://jira.example.com/rest/api/3/search/jql';
const CASES: { name: string; provider: ProviderName; recorded: Recorded[]; items: number; requests: number }[] = [
  {
    name: 'GitHub: rel="next" is the page itself',
    provider: 'github',
    recorded: [
      { url: `${GH}?state=all&per_page=5`, body: issues.slice(0, 5), headers: { link: `<${GH}?state=all&per_page=5>; rel="next"` } },
    ],
    items: 5,
    requests: 1,
  },
  {
    name: 'GitHub: page 2 leads back to page 1',
    provider: 'github',
    recorded: [
      { url: `${GH}?state=all&per_page=5`, body: issues.slice(0, 5), headers: { link: `<${GH}?state=all&per_page=5&page=2>; rel="next"` } },
      {
        url: `${GH}?state=all&per_page=5&page=2`,
        body: issues.slice(5, 10),
        headers: { link: `<${GH}?per_page=5&state=all&page=1>; rel="next"` },
      },
    ],
    items: 10,
    requests: 2,
  },
  {
    name: 'GitLab: X-Next-Page names the page itself',
    provider: 'gitlab',
    recorded: [
      {
        url: `${GL}?per_page=2`,
        body: [1, 2].map((iid) => ({ id: iid, iid, title: `t${iid}`, state: 'opened' })),
        headers: { 'x-page': '1', 'x-next-page': '1', 'x-per-page': '2' },
      },
    ],
    items: 2,
    requests: 1,
  },
  {
    name: 'Jira Cloud: nextPageToken is the token of the page itself',
    provider: 'jira',
    recorded: [
      { url: `${JIRA_CLOUD}?jql=project%3DK`, body: { issues: [jiraIssue(1), jiraIssue(2)], nextPageToken: 'T1' } },
      { url: `${JIRA_CLOUD}?jql=project%3DK&nextPageToken=T1`, body: { issues: [jiraIssue(3)], nextPageToken: 'T1' } },
    ],
    items: 3,
    requests: 2,
  },
  {
    name: 'Jira Server: the answer says startAt 0 whatever was asked, so the next startAt never moves',
    provider: 'jira',
    recorded: [
      { url: `${JIRA}?jql=project%3DK&startAt=0`, body: { startAt: 0, maxResults: 2, total: 50, issues: [jiraIssue(1), jiraIssue(2)] } },
      { url: `${JIRA}?jql=project%3DK&startAt=2`, body: { startAt: 0, maxResults: 2, total: 50, issues: [jiraIssue(3), jiraIssue(4)] } },
    ],
    items: 4,
    requests: 2,
  },
];

describe('a next page already fetched in a list is not fetched again', () => {
  for (const c of CASES) {
    it(`replay: ${c.name}`, async () => {
      const root = mkdtempSync(join(tmpdir(), 'devboy-loop-'));
      roots.push(root);
      for (const e of entries(c.provider, c.recorded)) {
        mkdirSync(join(root, e.file, '..'), { recursive: true });
        writeFileSync(join(root, e.file), JSON.stringify(e.exchange));
      }
      const requests: string[] = [];
      const datasets = await loadCorpusDatasets(root, {
        onProgress: (event) => void (event.type === 'request' && requests.push(event.url)),
      });
      assert.equal(datasets.length, 1);
      assert.equal(datasets[0]!.result.items.length, c.items);
      assert.equal(requests.length, c.requests, requests.join('\n'));
    });

    it(`live (every next page may be fetched): ${c.name}`, async () => {
      const server = await ReplayServer.start({ entries: entries(c.provider, c.recorded) });
      try {
        const client = await openClient(c.provider, { apiUrl: server.url, token: 'x', email: 'e@example.com' });
        const call = PROVIDERS[c.provider].classify(c.recorded[0]!.url)[0]!;
        const result = await client.run(call, { maxPages: 100, maxItems: Number.POSITIVE_INFINITY, canFetch: () => true });
        assert.equal(result.items.length, c.items);
        assert.equal(server.received.length, c.requests, server.received.map((r) => r.url).join('\n'));
      } finally {
        await server.close();
      }
    });
  }
});
