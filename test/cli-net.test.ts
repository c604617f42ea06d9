import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, before, describe, it } from 'node:test';
import { endless, json, silent, startHostile, type HostileServer } from './helpers/hostile-server.js';
import { REPO_ROOT } from './helpers/recordings.js';

/** `devboy record` against hostile servers, as a user runs it: bounded, one line, the right exit code. */

const BIN = join(REPO_ROOT, 'bin', 'run.js');
let dir: string;
let gcPressure: string;
let quiet: HostileServer;
let flood: HostileServer;
let notFound: HostileServer;

interface Run {
  code: number;
  stderr: string;
  ms: number;
}

function devboy(args: string[], env: Record<string, string> = {}): Promise<Run> {
  const started = performance.now();
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      // Collections while every attempt waits, as in a long run: a timeout must not depend on their
      // absence. One collection during a wait is what loses the abort signal of a collected Request in
      // Node 20's fetch (net-timeouts.test.ts says how that was checked); an attempt here waits at least
      // 1 s, and each collection costs the child about 20 ms of CPU.
      ['--expose-gc', '--import', pathToFileURL(gcPressure).href, BIN, ...args],
      { env: { PATH: process.env['PATH'] ?? '', HOME: dir, ...env }, cwd: dir, timeout: 120_000 },
      (err, _stdout, stderr) => {
        resolve({ code: err ? ((err as { code?: number }).code ?? 1) : 0, stderr, ms: performance.now() - started });
      },
    );
  });
}

before(async () => {
  dir = await mkdtemp(join(tmpdir(), 'devboy-net-'));
  gcPressure = join(dir, 'gc-pressure.mjs');
  await writeFile(gcPressure, 'setInterval(() => globalThis.gc(), 250).unref();\n');
  quiet = await startHostile(silent);
  flood = await startHostile(endless);
  notFound = await startHostile(json(404, { message: 'Not Found' }));
});

after(async () => {
  await quiet.close();
  await flood.close();
  await notFound.close();
  await rm(dir, { recursive: true, force: true });
});

// At once: the runs mostly wait on servers that never answer (seconds each), and each bound is against
// a control measured at the same time, on the machine as busy as these runs make it.
describe('devboy record on a hostile network', { concurrency: true }, () => {
  for (const provider of ['github', 'gitlab']) {
    it(`${provider}: a server that never answers, --timeout 1 --max-retries 1: exit 1 within the promised bound`, async () => {
      const record = (host: string) =>
        devboy(
          [
            'record',
            '-p',
            provider,
            '--owner',
            'acme',
            '--repo',
            'widgets',
            '--out-dir',
            join(dir, 'out'),
            '--host',
            host,
            '--timeout',
            '1',
            '--max-retries',
            '1',
          ],
          { [provider === 'github' ? 'GITHUB_TOKEN' : 'GITLAB_TOKEN']: 'tok-CLIsecret0123456789' },
        );
      // The control: the same command answered at once (a 404 ends it), now, on this machine as busy as it is.
      const control = await record(notFound.url);
      assert.equal(control.code, 1, control.stderr);
      const run = await record(quiet.url);
      assert.equal(run.code, 1, run.stderr);
      assert.match(
        run.stderr,
        /^devboy record: no answer in time for GET (\S+); retry 1 in 1 s\ndevboy record: (GitHub|GitLab) did not answer GET \1 within 1 s \(2 attempts\)\n$/,
      );
      // Two attempts of 1 s and a 1 s backoff, plus what the command costs answered at once (the start of
      // the process, oclif and the client loading): a fixed slack failed whenever the cores were busy.
      assert.ok(run.ms < 3000 + 1000 + 2 * control.ms, `took ${Math.round(run.ms)} ms; answered at once, ${Math.round(control.ms)} ms`);
    });
  }

  it('an endless body stops at DEVBOY_MAX_BODY_MB', async () => {
    const run = await devboy(
      ['record', '-p', 'github', '--owner', 'acme', '--repo', 'widgets', '--out-dir', join(dir, 'out'), '--host', flood.url],
      {
        DEVBOY_MAX_BODY_MB: '2',
      },
    );
    assert.equal(run.code, 1, run.stderr);
    assert.match(
      run.stderr,
      /^devboy record: GitHub answered GET http:\/\/127\.0\.0\.1:\d+\/repos\/acme\/widgets\/issues\S* with a body over the 2 MiB limit \(DEVBOY_MAX_BODY_MB raises it\)\n$/,
    );
  });

  it('a DEVBOY_MAX_BODY_MB that is not a size is a usage error', async () => {
    const run = await devboy(
      ['record', '-p', 'github', '--owner', 'acme', '--repo', 'widgets', '--out-dir', join(dir, 'out'), '--host', flood.url],
      {
        DEVBOY_MAX_BODY_MB: '0',
      },
    );
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stderr, 'devboy record: DEVBOY_MAX_BODY_MB must be a whole number of MiB of at least 1, got "0"\n');
  });

  it('a malformed --host: exit 2 at once, no DNS retries', async () => {
    const run = await devboy([
      'record',
      '-p',
      'gitlab',
      '--owner',
      'acme',
      '--repo',
      'widgets',
      '--out-dir',
      join(dir, 'out'),
      '--host',
      'https://gitlab_example!',
    ]);
    assert.equal(run.code, 2, run.stderr);
    assert.equal(run.stderr, 'devboy record: --host: https://gitlab_example!: "gitlab_example!" is not a host name\n');
  });
});
