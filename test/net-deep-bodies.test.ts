import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { MAX_DEPTH, tooDeepOffset } from '../src/json/depth.js';
import { scanCorpus } from '../src/replay/corpus.js';
import { runCli } from './helpers/cli.js';
import { GITHUB_TOKEN, GITLAB_TOKEN, JIRA_EMAIL, JIRA_TOKEN } from './helpers/live-apis.js';

// Issue 21 item 11: a live body nested about 3,000 levels failed with 'Maximum call stack size
// exceeded' (JSON.stringify in the benchmark and in record), naming neither the request nor the
// cause, while 600 levels got the clear message. The transport refuses a body nested past devboy's
// limit as it arrives: one message, naming the request, at every depth.

/** `{"a":{"a":...1...}}` nested `depth` objects deep, as text (JSON.stringify itself overflows on such values). */
const nested = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;

/** The first list each provider's live plan asks for, with one item holding `deep` (containers above it: `outer`). */
const BODIES = {
  github: { outer: 2, body: (deep: string) => `[{"number":1,"title":"t","state":"open","deep":${deep}}]` },
  gitlab: { outer: 2, body: (deep: string) => `[{"iid":1,"title":"t","state":"opened","deep":${deep}}]` },
  jira: {
    outer: 3,
    body: (deep: string) => `{"startAt":0,"maxResults":50,"total":1,"issues":[{"key":"K-1","fields":{"summary":"s"},"deep":${deep}}]}`,
  },
} as const;

type Provider = keyof typeof BODIES;

const ARGS: Record<Provider, string[]> = {
  github: ['--provider', 'github', '--owner', 'acme', '--repo', 'widgets'],
  gitlab: ['--provider', 'gitlab', '--owner', 'acme', '--repo', 'widgets'],
  jira: ['--provider', 'jira', '--project', 'K', '--jira-api', '2'],
};

const ENV: Record<Provider, NodeJS.ProcessEnv> = {
  github: { GITHUB_TOKEN },
  gitlab: { GITLAB_TOKEN },
  jira: { JIRA_EMAIL, JIRA_API_TOKEN: JIRA_TOKEN },
};

let server: Server;
let url = '';
/** The body the next requests get. */
let answer = '[]';
const dirs: string[] = [];

before(async () => {
  server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(answer) });
    res.end(answer);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(async () => {
  await new Promise<void>((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

describe('tooDeepOffset: where JSON text first nests past the limit, by a scan (no parse, no recursion)', () => {
  it('counts containers outside strings only', () => {
    assert.equal(tooDeepOffset('[[1]]', 2), -1);
    assert.equal(tooDeepOffset('[[[1]]]', 2), 2);
    assert.equal(tooDeepOffset('["[[[[", {"a\\"[[[": "]"}]', 2), -1);
    assert.equal(tooDeepOffset(nested(MAX_DEPTH)), -1);
    assert.equal(tooDeepOffset(nested(MAX_DEPTH + 1)), MAX_DEPTH * 5);
    assert.equal(tooDeepOffset(nested(1_000_000)), MAX_DEPTH * 5);
  });
});

describe('a live body nested past the limit: one message, naming the request, at every depth', () => {
  for (const provider of Object.keys(BODIES) as Provider[]) {
    it(`${provider}: benchmark and record exit 1 with the same one line from just past the limit to 100,000 levels`, async () => {
      const { outer, body } = BODIES[provider];
      const messages = new Set<string>();
      for (const depth of [MAX_DEPTH - outer + 1, 600, 3_000, 20_000, 100_000]) {
        answer = body(nested(depth));
        const bench = await runCli(
          ['benchmark', ...ARGS[provider], '--host', url, '--max-retries', '0', '--runs', '1', '--levels', 'minimal', '--formats', 'toon'],
          { env: ENV[provider] },
        );
        assert.equal(bench.code, 1, `${depth}: ${bench.stderr}`);
        assert.equal(bench.stderr.trimEnd().split('\n').length, 1, bench.stderr);
        assert.doesNotMatch(bench.stderr, /call stack/);
        messages.add(bench.stderr.replace(/^devboy benchmark: /, ''));
        const out = mkdtempSync(join(tmpdir(), 'devboy-deep-'));
        dirs.push(out);
        const rec = await runCli(['record', ...ARGS[provider], '--host', url, '--max-retries', '0', '--out-dir', out], {
          env: ENV[provider],
        });
        assert.equal(rec.code, 1, `${depth}: ${rec.stderr}`);
        assert.doesNotMatch(rec.stderr, /call stack/);
        messages.add(rec.stderr.replace(/^devboy record: /, ''));
        assert.equal(existsSync(join(out, provider)), false, 'nothing recorded');
      }
      assert.equal(messages.size, 1, [...messages].join(''));
      const [message] = messages;
      assert.match(
        message!,
        new RegExp(
          `answered GET ${url.replace(/[.]/g, '\\.')}/\\S+ with JSON nested deeper than ${MAX_DEPTH} levels \\(devboy's limit\\)\\n$`,
        ),
      );
    });
  }

  it('a body at the limit is read live, recorded, and reads back from its recording', async () => {
    const { outer, body } = BODIES.github;
    answer = body(nested(MAX_DEPTH - outer));
    const out = mkdtempSync(join(tmpdir(), 'devboy-deep-'));
    dirs.push(out);
    const rec = await runCli(['record', ...ARGS.github, '--host', url, '--max-retries', '0', '--details', '0', '--out-dir', out], {
      env: ENV.github,
    });
    assert.equal(rec.code, 0, rec.stderr);
    const { projects, skipped } = await scanCorpus(out);
    assert.deepEqual(skipped, []);
    assert.ok(projects[0]!.entries.length > 0);
  });
});
