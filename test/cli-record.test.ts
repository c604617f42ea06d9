import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { runCli } from './helpers/cli.js';
import { REPO_ROOT } from './helpers/recordings.js';
import type { FakeApi } from './helpers/fake-api.js';
import { GITHUB_TOKEN, startGithubLive } from './helpers/live-apis.js';

const BIN = join(REPO_ROOT, 'bin', 'run.js');
let dir: string;
let live: FakeApi;

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function devboy(args: string[], env: Record<string, string> = {}, nodeArgs: string[] = []): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeArgs, BIN, ...args],
      { env: { PATH: process.env['PATH'] ?? '', HOME: dir, ...env }, cwd: dir },
      (err, stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

/**
 * The same command in this process (helpers/cli.ts: the same flag parsing, errors, exit codes and
 * output streams), with none of the provider variables of the person running the tests. A recording
 * as a user starts it, and what help loads, stay in processes of their own.
 */
function devboyHere(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const unset = Object.fromEntries(
    [
      'GITHUB_TOKEN',
      'GH_TOKEN',
      'GITHUB_API_URL',
      'GITLAB_TOKEN',
      'GITLAB_HOST',
      'JIRA_HOST',
      'JIRA_EMAIL',
      'JIRA_API_TOKEN',
      'JIRA_PAT',
      'JIRA_API_VERSION',
    ].map((k) => [k, undefined]),
  );
  return runCli(args, { cwd: dir, env: { ...unset, HOME: dir, ...env } }).then((r) => ({ ...r, code: r.code ?? 1 }));
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'devboy-cli-'));
  live = await startGithubLive();
});

after(async () => {
  await live.close();
  await rm(dir, { recursive: true, force: true });
});

describe('devboy record', () => {
  it('records from the API in GITHUB_API_URL with GITHUB_TOKEN, and says where', async () => {
    const out = join(dir, 'corpus');
    const run = await devboy(
      ['record', '--provider', 'github', '--owner', 'acme', '--repo', 'widgets', '--limit', '5', '--details', '1', '--out', out],
      { GITHUB_TOKEN, GITHUB_API_URL: live.url },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(
      run.stdout,
      new RegExp(`^recorded \\d+ exchanges to ${out.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}/github/acme__widgets\\n`),
    );
    assert.match(run.stdout, / {2}merge_requests +5 {2}GET \/repos\/acme\/widgets\/pulls\?state=all&per_page=5\n/);
    assert.ok(!run.stdout.includes(GITHUB_TOKEN) && !run.stderr.includes(GITHUB_TOKEN));
    const files = await readdir(join(out, 'github', 'acme__widgets'));
    assert.ok(files.length >= 5);
    for (const f of files) assert.ok(!(await readFile(join(out, 'github', 'acme__widgets', f), 'utf8')).includes(GITHUB_TOKEN));
  });

  it('what it wrote fits 100 columns however long the folder: the path and long requests fold', async () => {
    const out = join(dir, `a-corpus-folder-whose-name-alone-is-longer-than-a-terminal-line-${'x'.repeat(60)}`);
    // In-process: its standard output is not a terminal either, as a subprocess's pipe is not.
    const run = await devboyHere(
      ['record', '--provider', 'github', '--owner', 'acme', '--repo', 'widgets', '--limit', '5', '--details', '1', '--out', out],
      { GITHUB_TOKEN, GITHUB_API_URL: live.url },
    );
    assert.equal(run.code, 0, run.stderr);
    assert.match(run.stdout, /^recorded \d+ exchanges to /);
    const wide = run.stdout.split('\n').filter((l) => [...l].length > 100);
    assert.deepEqual(wide, []);
    assert.match(run.stdout, / {2}merge_requests +5 {2}GET \/repos\/acme\/widgets\/pulls\?state=all&per_page=5\n/);
  });

  it('a rejected token: one line on stderr, exit 1, nothing written, no token shown', async () => {
    const out = join(dir, 'rejected');
    const run = await devboyHere(
      ['record', '-p', 'github', '--owner', 'acme', '--repo', 'widgets', '--out-dir', out, '--max-retries', '0'],
      {
        GITHUB_TOKEN: 'ghp_wrongTOKENvalue000',
        GITHUB_API_URL: live.url,
      },
    );
    assert.equal(run.code, 1);
    assert.match(
      run.stderr,
      /^devboy record: GitHub rejected the credentials \(401\) for GET http:\/\/127\.0\.0\.1:\d+\/repos\/acme\/widgets\/issues\?state=all&per_page=30: set GITHUB_TOKEN \(or --token\) to a valid token\n$/,
    );
    assert.ok(!run.stderr.includes('ghp_wrongTOKENvalue000'));
    await assert.rejects(readdir(out));
  });

  it('usage errors exit 2', async () => {
    const missing = await devboyHere(['record', '--provider', 'github', '--owner', 'acme', '--repo', 'widgets']);
    assert.equal(missing.code, 2);
    assert.equal(missing.stderr, 'devboy record: --out-dir DIR is required: the corpus folder to write into\n');
    const noRepo = await devboyHere(['record', '--provider', 'gitlab', '--out', join(dir, 'x')]);
    assert.equal(noRepo.code, 2);
    assert.equal(noRepo.stderr, 'devboy record: --owner and --repo are required for GitHub and GitLab\n');
    const noSite = await devboyHere(['record', '--provider', 'jira', '--project', 'AC', '--out', join(dir, 'x')]);
    assert.equal(noSite.code, 2);
    assert.match(noSite.stderr, /set JIRA_HOST or --host/);
  });

  it('record --help does not load any API client library', async () => {
    const log = join(dir, 'resolved.log');
    const hooks = join(dir, 'hooks.mjs');
    await writeFile(
      hooks,
      `import { appendFileSync } from 'node:fs';\nexport async function resolve(specifier, context, next) {\n  const result = await next(specifier, context);\n  appendFileSync(${JSON.stringify(log)}, result.url + '\\n');\n  return result;\n}\n`,
    );
    const register = join(dir, 'register.mjs');
    await writeFile(register, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(hooks).href)});\n`);
    // The root --help is cli-startup-modules' ('--help: no package at all beside the bundle').
    const run = await devboy(['record', '--help'], {}, ['--import', pathToFileURL(register).href]);
    assert.equal(run.code, 0, run.stderr);
    const resolved = await readFile(log, 'utf8');
    // The entry is imported; oclif itself is required (CommonJS, unseen by this hook), and every client
    // library would be imported by devboy's own modules, which the hook does see.
    assert.match(resolved, /\/bin\/run\.js\n/, 'the hook saw the modules loaded');
    assert.doesNotMatch(resolved, /@octokit|@gitbeaker|jira\.js|axios/, 'devboy record --help loaded a client library');
  });
});
