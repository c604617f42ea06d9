import assert from 'node:assert/strict';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import type { JsonObject } from '../src/json/types.js';
import { parseLinkHeader } from '../src/providers/link-header.js';
import { loadCorpusDatasets } from '../src/providers/load.js';
import type { Dataset } from '../src/model/index.js';
import { PROVIDER_NAMES } from '../src/providers/registry.js';
import { readCorpus } from '../src/replay/corpus.js';
import type { CorpusEntry } from '../src/replay/exchange.js';
import { selectAnswered } from '../src/replay/match.js';
import { CORPUS_DIR } from './helpers/recordings.js';
import { FULL_SUITE } from './helpers/sampling.js';

let datasets: Dataset[];
/** Recorded URL → the recording the replay server answers it with. */
const answered = new Map<string, CorpusEntry>();

before(async () => {
  datasets = await loadCorpusDatasets(CORPUS_DIR);
  for (const project of await readCorpus(CORPUS_DIR)) {
    for (const entry of selectAnswered(project.entries))
      answered.set(`${project.provider}/${project.project} ${entry.exchange.request.url}`, entry);
  }
});

function recordingsOf(d: Dataset): CorpusEntry[] {
  return d.requests.map((url) => {
    const entry = answered.get(`${d.provider}/${d.project} ${url}`);
    assert.ok(entry, `${d.label}: ${url} is not a recorded URL`);
    return entry;
  });
}

function find(label: string): Dataset {
  const found = datasets.filter((d) => d.label === label);
  assert.equal(found.length, 1, `exactly one dataset labelled ${label}`);
  return found[0]!;
}

describe('loading the shared corpus through the real clients and the replay server', () => {
  it('loads every project folder except gitlab-org__group, which holds only milestones', async () => {
    const folders: string[] = [];
    for (const provider of PROVIDER_NAMES) for (const p of await readdir(join(CORPUS_DIR, provider))) folders.push(`${provider}/${p}`);
    const loaded = new Set(datasets.map((d) => `${d.provider}/${d.project}`));
    assert.deepEqual(folders.filter((f) => !loaded.has(f)).sort(), ['gitlab/gitlab-org__group']);
  });

  it('yields the datasets each project holds, in a stable order', () => {
    const summary: Record<string, string> = {};
    for (const d of datasets) {
      const key = `${d.provider}/${d.project}`;
      summary[key] = `${summary[key] ? `${summary[key]} ` : ''}${d.kind}:${d.result.items.length}`;
    }
    assert.deepEqual(summary, {
      'github/_search': 'issues:55 merge_requests:2',
      'github/artsy__emission': 'merge_requests:1 comments:4 discussions:6',
      'github/betamaxpy__betamax': 'issues:13 issues:83 merge_requests:3 merge_requests:67',
      'github/octokit__octokit.rb':
        'merge_requests:14 merge_requests:30 merge_requests:14 merge_requests:5 diffs:3 diffs:3 comments:3 comments:30 comments:3 comments:30 discussions:1 discussions:30 discussions:1 discussions:30',
      // Its search of closed pull requests: every item a pull request, so measured as merge requests (issue 21 item 3).
      'github/rust-lang__rust': 'issues:3 merge_requests:3',
      'github/rust-lang__triagebot': 'diffs:5 diffs:8 diffs:3 diffs:5 diffs:7 diffs:12 diffs:3 diffs:3 diffs:3 diffs:4',
      'github/sigmavirus24__github3.py': 'merge_requests:2 merge_requests:11 diffs:5',
      'gitlab/dev.gitlab.org__gitlab__gitlabhq': 'merge_requests:3',
      'gitlab/gitlab-org__gitlab-foss':
        'issues:8 issues:6 issues:2 issues:9 issues:11 issues:2 issues:8 merge_requests:3 merge_requests:2 diffs:1 comments:15 discussions:1',
      'gitlab/rust-lang__triagebot__as-gitlab': 'diffs:7 diffs:3 diffs:3 diffs:3 diffs:4',
      'jira/AC': `issues:20 issues:50 ${'comments:'.repeat(1)}${[1, 1, 1, 4, 2, 2, 1, 5, 2, 3, 1, 4, 4, 2, 6, 2, 1, 3, 6].join(' comments:')}`,
      'jira/ALOY': `issues:20 issues:150 comments:${[7, 4, 3, 2, 3, 6, 7, 6, 2, 4, 4, 10, 2, 2, 6, 1, 4, 3].join(' comments:')}`,
    });
  });

  it('gives the same datasets on a second load, as plain JSON', async () => {
    if (FULL_SUITE) assert.deepEqual(await loadCorpusDatasets(CORPUS_DIR), datasets);
    // The fast suite loads again the smaller projects of each provider (a tenth of the corpus), each alone.
    else
      for (const [provider, project] of [
        ['github', 'artsy__emission'],
        ['gitlab', 'rust-lang__triagebot__as-gitlab'],
        ['gitlab', 'dev.gitlab.org__gitlab__gitlabhq'],
        ['jira', 'AC'],
      ] as const) {
        const first = datasets.filter((d) => d.provider === provider && d.project === project);
        assert.ok(first.length > 0, `${provider}/${project} has datasets`);
        assert.deepEqual(await loadCorpusDatasets(CORPUS_DIR, { provider, project }), first);
      }
    assert.deepEqual(JSON.parse(JSON.stringify(datasets)), datasets, 'no undefined, no class instances');
  });

  it('names the recorded URLs, never the loopback server', () => {
    for (const d of datasets) {
      for (const url of d.requests) {
        assert.match(url, /^https:\/\//);
        assert.doesNotMatch(url, /127\.0\.0\.1/);
      }
    }
  });

  it('keys items as gh#N (owner/repo#N when a list spans repositories), pr#N, gitlab#N, mr#N and PROJ-N, matching the raw items 1:1', () => {
    const patterns: Record<string, RegExp> = {
      'github issues': /^gh#\d+$/,
      'github search issues': /^[\w.-]+\/[\w.-]+#\d+$/,
      'github search merge_requests': /^pr#\d+$/,
      'github merge_requests': /^pr#\d+$/,
      'gitlab issues': /^gitlab#\d+$/,
      'gitlab merge_requests': /^mr#\d+$/,
      'jira issues': /^[A-Z]+-\d+$/,
    };
    for (const d of datasets) {
      if (d.kind !== 'discussions') assert.equal(d.raw.length, d.result.items.length, `${d.label}: raw and items are 1:1`);
      const pattern = patterns[d.label.startsWith('GET /search/') ? `${d.provider} search ${d.kind}` : `${d.provider} ${d.kind}`];
      if (!pattern) continue;
      d.result.items.forEach((item, i) => {
        const key = (item as { key: string }).key;
        assert.match(key, pattern);
        const raw = d.raw[i] as JsonObject;
        const id = d.provider === 'github' ? raw['number'] : d.provider === 'gitlab' ? raw['iid'] : raw['key'];
        assert.ok(key.endsWith(String(id)), `${key} is raw item ${String(id)}`);
      });
    }
  });

  it('keeps pull requests out of GitHub issue lists', async () => {
    const d = find('GET /repos/betamaxpy/betamax/issues?state=all&per_page=100');
    const recorded = recordingsOf(d).flatMap((e) => e.exchange.response.body as JsonObject[]);
    assert.equal(recorded.length, 150);
    assert.equal(d.result.items.length, recorded.filter((i) => !('pull_request' in i)).length);
    assert.ok(d.raw.every((i) => !('pull_request' in (i as JsonObject))));
    assert.equal(d.requests.length, 2, 'page 2 was followed through the rewritten Link header');
    assert.equal(d.requests[1], 'https://api.github.com/repositories/11439734/issues?state=all&per_page=100&page=2');
  });
});

describe('pagination and sort metadata agree with the recorded headers and bodies', () => {
  it('GitHub: Link next ⇔ has_more, next_cursor is its page, limit is per_page × pages', () => {
    let checked = 0;
    for (const d of datasets.filter((x) => x.provider === 'github' && x.result.pagination)) {
      const recs = recordingsOf(d);
      const p = d.result.pagination!;
      const next = parseLinkHeader(recs.at(-1)!.exchange.response.headers['link'])['next'];
      assert.equal(p.has_more, next !== undefined, d.label);
      assert.equal(p.next_cursor, next ? new URL(next).searchParams.get('page')! : undefined, d.label);
      const perPage = Number(new URL(d.requests[0]!).searchParams.get('per_page') ?? 30);
      assert.equal(p.limit, perPage * d.requests.length, d.label);
      assert.equal(p.offset, 0);
      const body = recs[0]!.exchange.response.body as JsonObject;
      if (d.label.startsWith('GET /search/')) assert.equal(p.total, body['total_count']);
      checked++;
    }
    assert.ok(checked >= 30, `${checked} GitHub lists checked`);
    const closed = find('GET /repos/octokit/octokit.rb/pulls?state=closed').result.pagination!;
    assert.deepEqual(closed, { offset: 0, limit: 30, has_more: true, next_cursor: '2' });
  });

  it('GitLab: X-Total, X-Per-Page, X-Page and X-Next-Page', () => {
    let withHeaders = 0;
    for (const d of datasets.filter((x) => x.provider === 'gitlab' && x.result.pagination)) {
      const recs = recordingsOf(d);
      const first = recs[0]!.exchange.response.headers;
      const last = recs.at(-1)!.exchange.response.headers;
      const p = d.result.pagination!;
      if (first['x-per-page'] === undefined) {
        assert.equal(p.limit, 20 * d.requests.length, `${d.label}: GitLab's default page size without headers`);
        continue;
      }
      withHeaders++;
      assert.equal(p.limit, Number(first['x-per-page']) * d.requests.length, d.label);
      assert.equal(p.offset, (Number(first['x-page']) - 1) * Number(first['x-per-page']), d.label);
      assert.equal(p.total, last['x-total'] ? Number(last['x-total']) : undefined, d.label);
      assert.equal(p.has_more, (last['x-next-page'] ?? '') !== '', d.label);
    }
    assert.equal(withHeaders, 5);
  });

  it('Jira: startAt, maxResults and total of the search and of embedded comments', () => {
    const aloy = find('GET /rest/api/2/search?jql=project%3DALOY%20ORDER%20BY%20key%20ASC&startAt=0&maxResults=50');
    const pages = recordingsOf(aloy).map((e) => e.exchange.response.body as JsonObject);
    assert.deepEqual(
      pages.map((b) => b['startAt']),
      [0, 50, 100],
    );
    assert.deepEqual(aloy.result.pagination, { offset: 0, limit: 150, total: 150, has_more: false });
    for (const d of datasets.filter((x) => x.provider === 'jira' && x.kind === 'comments')) {
      const envelope = ((recordingsOf(d)[0]!.exchange.response.body as JsonObject)['fields'] as JsonObject)['comment'] as JsonObject;
      const count = (envelope['comments'] as unknown[]).length;
      assert.deepEqual(
        d.result.pagination,
        {
          offset: envelope['startAt'],
          limit: envelope['maxResults'],
          total: envelope['total'],
          has_more: (envelope['startAt'] as number) + count < (envelope['total'] as number),
        },
        d.label,
      );
    }
  });

  it('sort: the request, else what the server echoed, else the documented default', () => {
    assert.deepEqual(find('GET /repos/betamaxpy/betamax/issues?direction=asc&per_page=100').result.sort_info, {
      sort_by: 'created',
      sort_order: 'asc',
      available_sorts: ['created', 'updated', 'comments'],
    });
    assert.equal(
      find('GET /repos/sigmavirus24/github3.py/pulls?sort=created&direction=desc&per_page=100').result.sort_info?.sort_order,
      'desc',
    );
    const search = find('GET /search/issues?q=github3+label%3ABug&per_page=100').result.sort_info!;
    assert.equal(search.sort_by, undefined, 'best-match order has no field');
    const echoed = datasets.find((d) => d.label.includes('milestone=8.5&search='))!;
    const link = recordingsOf(echoed)[0]!.exchange.response.headers['link']!;
    assert.match(link, /order_by=created_at/);
    assert.deepEqual([echoed.result.sort_info?.sort_by, echoed.result.sort_info?.sort_order], ['created_at', 'desc']);
    const jira = find('GET /rest/api/2/search?jql=project%3DAC%20ORDER%20BY%20key%20ASC&startAt=0&maxResults=50').result.sort_info!;
    assert.deepEqual([jira.sort_by, jira.sort_order], ['key', 'asc']);
    assert.equal(find('GET /repos/octokit/octokit.rb/pulls/67/files').result.sort_info, undefined, 'files have no sort');
  });
});

describe('normalized items from real payloads', () => {
  it('GitLab v3 bodies under v4 URLs: single assignee, opened → open', () => {
    const v3 = datasets.find((d) => d.label === 'GET /api/v4/projects/gitlab-org%2Fgitlab-foss/issues?labels=Release&milestone=8.5')!;
    const raw = v3.raw[0] as JsonObject;
    assert.ok('assignee' in raw && !('assignees' in raw), 'the recording has the v3 shape');
    const item = v3.result.items[0] as { assignees: { username: string }[]; state: string };
    const assignee = raw['assignee'] as JsonObject | null;
    assert.deepEqual(
      item.assignees.map((u) => u.username),
      assignee ? [assignee['username']] : [],
    );
    assert.ok(['open', 'closed'].includes(item.state));
  });

  it('GitHub review comments become threads by in_reply_to_id', () => {
    for (const d of datasets.filter((x) => x.provider === 'github' && x.kind === 'discussions')) {
      const raw = d.raw as JsonObject[];
      const ids = new Set(raw.map((c) => c['id']));
      const roots = raw.filter((c) => c['in_reply_to_id'] === undefined || c['in_reply_to_id'] === null || !ids.has(c['in_reply_to_id']));
      assert.equal(d.result.items.length, roots.length, d.label);
      assert.equal(
        d.result.items.reduce((n, t) => n + (t as { comments: unknown[] }).comments.length, 0),
        raw.length,
        `${d.label}: every comment is in one thread`,
      );
    }
  });

  it('Jira issues link to the recorded site and keep wiki markup', () => {
    const d = find('GET /rest/api/2/search?jql=project%3DALOY%20ORDER%20BY%20key%20ASC&startAt=0&maxResults=50');
    const first = d.result.items[0] as { url: string; description: string };
    assert.equal(first.url, 'https://jira.appcelerator.org/browse/ALOY-5');
    assert.match(first.description, /\[\[https:\/\/github.com\/dmajda\/pegjs\/issues\/33\]\]/);
  });
});
