import assert from 'node:assert/strict';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { DataError } from '../src/errors.js';
import { loadCorpusDatasets } from '../src/providers/load.js';
import { readCorpus } from '../src/replay/corpus.js';
import { recordLive, type RecordOptions } from '../src/record/record.js';
import { instantSleep, rejection } from './helpers/recordings.js';
import type { FakeApi } from './helpers/fake-api.js';
import {
  GITHUB_TOKEN,
  GITLAB_TOKEN,
  JIRA_EMAIL,
  JIRA_TOKEN,
  startGithubLive,
  startGitlabLive,
  startJiraLive,
} from './helpers/live-apis.js';

const NOW = new Date('2026-03-01T12:00:00.000Z');
const dirs: string[] = [];
after(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

async function tempDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'devboy-record-'));
  dirs.push(dir);
  return dir;
}

interface Case {
  name: string;
  start: (failures?: Record<string, number>) => Promise<FakeApi>;
  options: (live: FakeApi) => Omit<RecordOptions, 'outDir'>;
  folder: string;
  secrets: string[];
  kinds: string[];
  limit: number;
}

const CASES: Case[] = [
  {
    name: 'GitHub',
    start: startGithubLive,
    options: (live) => ({
      provider: 'github',
      owner: 'acme',
      repo: 'widgets',
      host: live.url,
      env: { GITHUB_TOKEN },
      limit: 40,
      details: 2,
    }),
    folder: 'github/acme__widgets',
    secrets: [GITHUB_TOKEN],
    // The issues list's pull requests (betamax's list mixes them in), then the /pulls list.
    kinds: ['issues', 'merge_requests', 'merge_requests', 'diffs', 'diffs', 'comments', 'comments', 'discussions', 'discussions'],
    limit: 40,
  },
  {
    name: 'GitLab',
    start: startGitlabLive,
    options: (live) => ({
      provider: 'gitlab',
      owner: 'acme',
      repo: 'widgets',
      env: { GITLAB_TOKEN, GITLAB_HOST: live.url },
      limit: 8,
      details: 2,
    }),
    folder: 'gitlab/acme__widgets',
    secrets: [GITLAB_TOKEN],
    kinds: ['issues', 'merge_requests', 'diffs', 'diffs', 'comments', 'comments', 'discussions', 'discussions'],
    limit: 8,
  },
  {
    name: 'Jira',
    start: startJiraLive,
    options: (live) => ({
      provider: 'jira',
      project: 'ALOY',
      env: { JIRA_HOST: live.url, JIRA_EMAIL, JIRA_API_TOKEN: JIRA_TOKEN },
      limit: 60,
      details: 3,
    }),
    folder: 'jira/ALOY',
    secrets: [JIRA_TOKEN, Buffer.from(`${JIRA_EMAIL}:${JIRA_TOKEN}`).toString('base64')],
    kinds: ['issues', 'comments', 'comments'],
    limit: 60,
  },
];

for (const c of CASES) {
  describe(`record ${c.name} from a local server playing the live API`, () => {
    it('writes every exchange, without credentials or cookies, and replays to the same datasets', async () => {
      const live = await c.start();
      const out = await tempDir();
      try {
        const { sleep } = instantSleep();
        const result = await recordLive({ ...c.options(live), outDir: out, now: () => NOW, http: { sleep } });
        assert.deepEqual(
          result.datasets.map((d) => d.kind),
          c.kinds,
        );
        const listed = result.datasets[0]!.result;
        assert.ok(
          listed.items.length >= Math.min(c.limit, listed.pagination?.total ?? Infinity),
          `at least --limit ${c.limit} ${c.kinds[0]} (or all there are)`,
        );
        assert.equal(result.projectDir, join(out, c.folder));
        const names = (await readdir(result.projectDir)).sort();
        assert.deepEqual(names, [...result.files].sort());
        assert.equal(names.length, live.received.length, 'one file per request the live API answered');

        for (const name of names) {
          const text = await readFile(join(result.projectDir, name), 'utf8');
          for (const secret of c.secrets) assert.ok(!text.includes(secret), `${name} leaks a secret`);
          const file = JSON.parse(text) as {
            request: { url: string };
            response: { status: number; headers: Record<string, string> };
            provenance: Record<string, unknown>;
          };
          const headers = Object.keys(file.response.headers);
          for (const banned of ['authorization', 'cookie', 'set-cookie', 'private-token', 'x-oauth-scopes', 'x-request-id'])
            assert.ok(!headers.includes(banned), `${name} keeps ${banned}`);
          assert.equal(file.response.status, 200);
          assert.ok(file.request.url.startsWith(live.url));
          assert.equal(file.provenance['recorded_at'], NOW.toISOString());
          assert.equal(file.provenance['envelope'], 'recorded (devboy record)');
          assert.equal(file.provenance['source_repo'], c.name === 'Jira' ? 'ALOY' : 'acme/widgets');
        }
        const manifest = (await readFile(join(out, 'MANIFEST.tsv'), 'utf8')).trim().split('\n');
        assert.equal(manifest.length, names.length + 1);
        assert.ok(manifest.slice(1).every((row) => row.startsWith(`${c.folder}/`) && row.split('\t')[5] === '200'));

        const replayed = await loadCorpusDatasets(out);
        assert.deepEqual(replayed, result.datasets);
      } finally {
        await live.close();
      }
    });
  });
}

describe('record writes nothing unless everything succeeded', () => {
  it('a failing request leaves the earlier recording untouched and no staging folder behind', async () => {
    const out = await tempDir();
    const { sleep } = instantSleep();
    const good = await startGithubLive();
    let before: string[];
    try {
      const first = await recordLive({ ...CASES[0]!.options(good), outDir: out, now: () => NOW, http: { sleep } });
      before = (await readdir(first.projectDir)).sort();
    } finally {
      await good.close();
    }
    const failing = await startGithubLive({ '/files': 500 });
    try {
      const err = await rejection(
        recordLive({
          ...CASES[0]!.options(failing),
          outDir: out,
          now: () => new Date('2027-01-01T00:00:00Z'),
          http: { sleep, maxRetries: 1 },
        }),
      );
      assert.ok(err instanceof DataError);
      assert.match(err.message, /^GitHub server error 500 for GET .*\/files.* after 2 attempts/);
    } finally {
      await failing.close();
    }
    assert.deepEqual((await readdir(join(out, 'github'))).sort(), ['acme__widgets'], 'no staging folder left');
    const after = (await readdir(join(out, 'github/acme__widgets'))).sort();
    assert.deepEqual(after, before);
    const text = await readFile(join(out, 'github/acme__widgets', after[0]!), 'utf8');
    assert.ok(text.includes(NOW.toISOString()), 'the earlier recording is still there');
  });

  it('a first recording that fails creates no project folder', async () => {
    const out = await tempDir();
    const failing = await startGitlabLive({ '/discussions': 503 });
    try {
      const { sleep } = instantSleep();
      await rejection(recordLive({ ...CASES[1]!.options(failing), outDir: out, http: { sleep, maxRetries: 0 } }));
    } finally {
      await failing.close();
    }
    assert.deepEqual(await readCorpus(out).catch(() => []), []);
    assert.deepEqual(await readdir(join(out, 'gitlab')).catch(() => []), []);
  });
});
