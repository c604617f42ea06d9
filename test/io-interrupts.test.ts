import assert from 'node:assert/strict';
import {
  copyFileSync,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { removeStaleTemps, STALE_AFTER_MS, tempPathIn } from '../src/io/temp-files.js';
import { runCli, spawnCli, type CliResult } from './helpers/cli.js';
import { FULL_SUITE } from './helpers/sampling.js';

const root = mkdtempSync(join(tmpdir(), 'devboy-interrupt-'));
after(() => rmSync(root, { recursive: true, force: true }));

let serial = 0;
function freshDir(): string {
  const dir = join(root, `case-${++serial}`);
  mkdirSync(dir);
  return dir;
}

function temps(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.startsWith('.devboy-'));
}

function row(i: number): string {
  return `${JSON.stringify({ id: i, title: `An issue title that is reasonably long ${i}`, state: i % 2 ? 'open' : 'closed', comments: i % 13 })}\n`;
}

/**
 * About 12 MB of NDJSON: big enough that writing and flushing its output takes a while to interrupt
 * (from 3.5 MB up the temporary file was caught at the first attempt, every time, on a
 * busy 2-core machine), small enough that converting it first costs under a second.
 */
let bigInput: string;
before(async () => {
  bigInput = join(root, 'big.ndjson');
  const out = createWriteStream(bigInput);
  let chunk = '';
  for (let i = 0; i < 100_000; i++) {
    chunk += row(i);
    if (chunk.length > 1_000_000) {
      if (!out.write(chunk)) await new Promise<void>((r) => out.once('drain', () => r()));
      chunk = '';
    }
  }
  await new Promise<void>((r) => out.end(chunk, r));
});

/**
 * Watch `dir` for a temp file, with data when `withData`; `found` resolves with its name. Set up
 * before the write starts, so the file's creation is an event waiting for this process however
 * busy the machine is (a timed poll could sleep through a short write; a poll without pause cost
 * half a second of CPU per run). A whole-file write puts all its data in at once and renames soon
 * after, so there the moment to catch is the temp file's existence; when it is gone by the time
 * the event is read, the caller tries again.
 */
function watchTemps(dir: string, withData: boolean): { found: Promise<string>; close(): void } {
  let resolveFound!: (name: string) => void;
  const found = new Promise<string>((r) => (resolveFound = r));
  const check = (name: string) => {
    try {
      if (!withData || statSync(join(dir, name)).size > 0) resolveFound(name);
    } catch {
      // renamed or removed meanwhile
    }
  };
  const watcher = watch(dir, (_event, name) => {
    // Without a name (allowed by fs.watch, not seen on Linux) every temp file is looked at.
    for (const n of name ? [name] : temps(dir)) if (n.startsWith('.devboy-')) check(n);
  });
  return { found, close: () => watcher.close() };
}

/** Start `devboy convert -o TARGET`, streaming from stdin (left open) or whole from the big file. */
function startWrite(target: string, mode: 'stream' | 'whole'): ReturnType<typeof spawnCli> {
  if (mode === 'whole') {
    const run = spawnCli(['convert', bigInput, '--to', 'json', '-o', target]);
    run.child.stdin.end();
    return run;
  }
  const run = spawnCli(['convert', '-', '--from', 'ndjson', '--to', 'gcf', '--stream', '-o', target]);
  let rows = '';
  for (let i = 0; i < 20_000; i++) rows += row(i);
  run.child.stdin.write(rows);
  return run;
}

/**
 * Start a write and send `signal` while its temp file exists. A whole-file write may end before the
 * watcher sees it (the machine was fast or busy); then `reset` puts the target back and it is tried again.
 */
async function interrupt(
  signal: NodeJS.Signals,
  mode: 'stream' | 'whole',
  target: string,
  reset: () => void = () => {},
): Promise<{ result: CliResult; tempSeen: string; pid: number }> {
  for (let attempt = 1; ; attempt++) {
    const watcher = watchTemps(join(target, '..'), mode === 'stream');
    const run = startWrite(target, mode);
    let timer: NodeJS.Timeout | undefined;
    const tempSeen = await Promise.race([
      watcher.found,
      run.done.then(() => undefined),
      new Promise<undefined>((r) => (timer = setTimeout(() => r(undefined), 60_000))),
    ]);
    clearTimeout(timer);
    watcher.close();
    if (tempSeen) {
      run.child.kill(signal);
      return { result: await run.done, tempSeen, pid: run.child.pid! };
    }
    run.child.kill('SIGKILL');
    const r = await run.done;
    if (mode === 'stream' || attempt === 3 || r.code !== 0)
      assert.fail(`no temporary file appeared before devboy ended (attempt ${attempt}, exit ${r.code}): ${r.stderr}`);
    reset();
  }
}

describe('an interrupted -o write leaves the target as it was and no temporary file', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    for (const mode of ['stream', 'whole'] as const) {
      for (const existing of [true, false]) {
        // A whole-file write converts 12 MB first: the fast suite interrupts one of the four such writes,
        // and two of the four streamed ones, each signal once and each target once, over a file and
        // none (the signal and the target are handled apart). npm run test:corpus runs all eight.
        const fast = mode === 'stream' ? (signal === 'SIGINT') === existing : signal === 'SIGTERM' && existing;
        it(
          `${signal} during a ${mode === 'stream' ? 'streamed' : 'whole-file'} write${existing ? ' over an existing file' : ''}`,
          { skip: !fast && !FULL_SUITE && 'in npm run test:corpus' },
          async () => {
            const dir = freshDir();
            const target = join(dir, 'out.txt');
            const reset = () => (existing ? writeFileSync(target, 'previous content\n') : rmSync(target, { force: true }));
            reset();
            const { result } = await interrupt(signal, mode, target, reset);
            // Dying of the signal itself is what shells expect: $? is 128 + its number (130, 143), and a
            // script loop running devboy stops rather than going on.
            assert.equal(result.signal, signal, `exit ${result.code}: ${result.stderr}`);
            assert.equal(result.stderr, '');
            assert.deepEqual(temps(dir), []);
            if (existing) assert.equal(readFileSync(target, 'utf8'), 'previous content\n');
            else assert.ok(!existsSync(target), 'no target appears');
          },
        );
      }
    }
  }
});

describe('after SIGKILL, which no process can catch, a later write into the same folder removes the leftover', () => {
  it('removes temp files of ended processes once they are a minute old; keeps those of running processes', async () => {
    const dir = freshDir();
    const target = join(dir, 'out.gcf');
    writeFileSync(target, 'previous content\n');
    const { result, tempSeen, pid } = await interrupt('SIGKILL', 'stream', target);
    assert.equal(result.signal, 'SIGKILL');
    assert.deepEqual(temps(dir), [tempSeen], 'SIGKILL leaves the temporary file');
    assert.ok(tempSeen.includes(`-${pid}-`), `the temp name ${tempSeen} carries the pid ${pid}`);
    assert.equal(readFileSync(target, 'utf8'), 'previous content\n');

    // The same leftover as if a process that is still running had made it (this test's own).
    const alive = tempSeen.replace(`-${pid}-`, `-${process.pid}-`);
    copyFileSync(join(dir, tempSeen), join(dir, alive));

    // The later writes run in-process: the sweep is the same code in any process, and this one's
    // pid (the "live" leftover's) is running either way.
    const rows = join(dir, 'rows.ndjson');
    writeFileSync(rows, row(1));
    const young = await runCli(['convert', rows, '--to', 'toon', '-o', join(dir, 'later.toon')]);
    assert.equal(young.code, 0, young.stderr);
    // A fresh file might belong to a live process the pid check cannot see (another pid namespace).
    assert.deepEqual(temps(dir).sort(), [tempSeen, alive].sort(), 'a fresh leftover is kept');

    const old = new Date(Date.now() - 5 * 60_000);
    for (const name of [tempSeen, alive]) utimesSync(join(dir, name), old, old);
    const later = await runCli(['convert', rows, '--to', 'toon', '-o', join(dir, 'later.toon')]);
    assert.equal(later.code, 0, later.stderr);
    assert.deepEqual(temps(dir), [alive], 'the dead process leftover is gone; the live one stays');
    assert.equal(readFileSync(target, 'utf8'), 'previous content\n');
  });
});

describe('which leftovers a write removes', () => {
  it('ended processes of this host and of earlier devboy versions: yes; other hosts, live or fresh ones: no', async () => {
    const dir = freshDir();
    const deadPid = 2 ** 22 + 12_345; // above Linux's pid_max: never running
    const ours = tempPathIn(dir);
    const dead = ours.replace(`-${process.pid}-`, `-${deadPid}-`);
    const names = {
      dead,
      legacy: join(dir, `.devboy-tmp-${deadPid}-0a1b2c3d-report.json`),
      otherHost: dead.replace(/\.devboy-tmp-[0-9a-f]{8}-/, (m) =>
        m === '.devboy-tmp-00000000-' ? '.devboy-tmp-11111111-' : '.devboy-tmp-00000000-',
      ),
      mine: ours,
      parent: ours.replace(`-${process.pid}-`, `-${process.ppid}-`),
      notOurs: join(dir, '.devboy-tmp-notes.txt'),
      fresh: ours.replace(`-${process.pid}-`, `-${deadPid + 1}-`),
    };
    const old = new Date(Date.now() - 2 * STALE_AFTER_MS);
    for (const [key, path] of Object.entries(names)) {
      if (key === 'legacy') mkdirSync(path);
      else writeFileSync(path, key);
      if (key !== 'fresh') utimesSync(path, old, old);
    }
    await removeStaleTemps(dir);
    const left = (p: string) => existsSync(p);
    assert.deepEqual(Object.fromEntries(Object.entries(names).map(([key, path]) => [key, left(path)])), {
      dead: false,
      legacy: false,
      otherHost: true,
      mine: true,
      parent: true,
      notOurs: true,
      fresh: true,
    });
  });
});
