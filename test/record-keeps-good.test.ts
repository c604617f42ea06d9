import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { DataError } from '../src/errors.js';
import { writeManifest, writeProjectAtomically } from '../src/record/write.js';
import { runCli } from './helpers/cli.js';
import type { FakeApi } from './helpers/fake-api.js';
import { GITHUB_TOKEN, startGithubLive } from './helpers/live-apis.js';

// Issue 21 item 7: a failed `record` replaced the good earlier recording of the same project, and
// then every later record into that --out-dir failed, because the manifest step re-read the bad
// folder strictly. A project's recording is replaced only when the new one reads back whole; the
// manifest step lists what it can read and names what it cannot.

const roots: string[] = [];
after(() => {
  for (const root of roots) rmSync(root, { recursive: true, force: true });
});
const temp = () => {
  const dir = mkdtempSync(join(tmpdir(), 'devboy-keep-'));
  roots.push(dir);
  return dir;
};

const exchange = (n: number) =>
  JSON.stringify({
    provider: 'github',
    project: 'acme__widgets',
    request: { method: 'GET', url: `https://api.github.com/repos/acme/widgets/issues/${n}` },
    response: { status: 200, headers: { 'content-type': 'application/json' }, body: { number: n, title: `t${n}` } },
    provenance: {},
  });

/** Every file of a folder and its text. */
const snapshot = (dir: string) => Object.fromEntries(readdirSync(dir).map((f) => [f, readFileSync(join(dir, f), 'utf8')]));

describe('a new recording replaces the earlier one only when every file reads back', () => {
  for (const [what, text, reason] of [
    ['not JSON', '{"request": ', /invalid JSON/],
    ['not a recorded exchange', '{"request": {"method": "GET"}}', /not a recorded exchange: "request\.url" must be a string/],
    ['a status HTTP has no such thing as', exchange(2).replace('"status":200', '"status":42'), /"response\.status" .* got 42/],
    [
      'a body nested past the limit',
      exchange(2).replace('"title":"t2"', `"deep":${'['.repeat(501)}${']'.repeat(501)}`),
      /nesting deeper than 500/,
    ],
  ] as const) {
    it(`a file that is ${what}: refused, naming it; the earlier recording is kept byte for byte`, async () => {
      const out = temp();
      const projectDir = await writeProjectAtomically(out, 'github', 'acme__widgets', [{ name: '000_GET_a.json', text: exchange(1) }]);
      const before = snapshot(projectDir);
      await assert.rejects(
        writeProjectAtomically(out, 'github', 'acme__widgets', [
          { name: '000_GET_a.json', text: exchange(3) },
          { name: '001_GET_b.json', text },
        ]),
        (err: Error) => {
          assert.ok(err instanceof DataError, String(err));
          assert.match(err.message, /github\/acme__widgets\/001_GET_b\.json/);
          assert.match(err.message, reason);
          assert.match(err.message, /the earlier recording is kept/);
          return true;
        },
      );
      assert.deepEqual(snapshot(projectDir), before);
      assert.deepEqual(readdirSync(join(out, 'github')), ['acme__widgets'], 'no staging folder left behind');
    });
  }
});

describe('the manifest lists what it can read and names what it cannot', () => {
  it('a bad recording in another project: MANIFEST.tsv lists the rest, and the bad file is returned with its reason', async () => {
    const out = temp();
    await writeProjectAtomically(out, 'github', 'acme__widgets', [{ name: '000_GET_a.json', text: exchange(1) }]);
    mkdirSync(join(out, 'github', 'other__bad'), { recursive: true });
    writeFileSync(join(out, 'github', 'other__bad', '000_GET_x.json'), '{"request": ');
    const skipped = await writeManifest(out);
    assert.deepEqual(
      skipped.map((s) => s.file),
      ['github/other__bad/000_GET_x.json'],
    );
    assert.match(skipped[0]!.reason, /invalid JSON/);
    const manifest = readFileSync(join(out, 'MANIFEST.tsv'), 'utf8').trim().split('\n');
    assert.equal(manifest.length, 2);
    assert.ok(manifest[1]!.startsWith('github/acme__widgets/000_GET_a.json\t'));
  });
});

describe('devboy record into a folder that holds a bad recording', () => {
  let live: FakeApi;
  before(async () => {
    live = await startGithubLive();
  });
  after(() => live.close());

  it('records (exit 0) and names the file the manifest leaves out, every time; a failed record keeps the good one', async () => {
    const out = temp();
    mkdirSync(join(out, 'github', 'other__bad'), { recursive: true });
    writeFileSync(join(out, 'github', 'other__bad', '000_GET_x.json'), '{"request": ');
    const args = ['record', '-p', 'github', '--owner', 'acme', '--repo', 'widgets', '--limit', '3', '--details', '0', '--out-dir', out];
    const env = { GITHUB_TOKEN, GITHUB_API_URL: live.url };
    for (let i = 0; i < 2; i++) {
      const r = await runCli(args, { env });
      assert.equal(r.code, 0, r.stderr);
      assert.match(r.stdout, /^recorded \d+ exchanges to /);
      assert.match(
        r.stderr,
        /^devboy record: MANIFEST\.tsv leaves out a recording that cannot be read: github\/other__bad\/000_GET_x\.json:1:13: invalid JSON.*\n$/,
      );
    }
    const projectDir = join(out, 'github', 'acme__widgets');
    const good = snapshot(projectDir);
    const manifest = readFileSync(join(out, 'MANIFEST.tsv'), 'utf8');
    // A record that fails (the pull requests answer 500, no retry): nothing is replaced.
    const failing = await startGithubLive({ '/pulls': 500 });
    try {
      const r = await runCli([...args, '--max-retries', '0'], { env: { GITHUB_TOKEN, GITHUB_API_URL: failing.url } });
      assert.equal(r.code, 1);
      assert.match(r.stderr, /server error 500/);
    } finally {
      await failing.close();
    }
    assert.deepEqual(snapshot(projectDir), good);
    assert.equal(readFileSync(join(out, 'MANIFEST.tsv'), 'utf8'), manifest);
  });
});
