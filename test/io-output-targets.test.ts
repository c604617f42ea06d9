import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import {
  chmodSync,
  closeSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it, type TestContext } from 'node:test';
import { DataError } from '../src/errors.js';
import { writeFileAtomic } from '../src/io/atomic-write.js';
import { descriptorOf, resolveOutputTarget } from '../src/io/output-target.js';
import { streamConvert } from '../src/stream/stream-convert.js';
import { runCli, runCliProcess } from './helpers/cli.js';
import { REPO_ROOT } from './helpers/paths.js';

// devboy runs in this process (runCli) where only the target matters, and in a process of its own
// (runCliProcess) where the process does: its standard output, another user, a FIFO whose open blocks.
// Never aim these tests at the machine's /dev/null or /dev/stdout: an implementation that renames over
// its target would replace the real device file (the tests run as root). Devices are made in a temp dir.
const root = mkdtempSync(join(tmpdir(), 'devboy-io-'));
chmodSync(root, 0o755);
after(() => rmSync(root, { recursive: true, force: true }));

let serial = 0;
function freshDir(): string {
  const dir = join(root, `case-${++serial}`);
  mkdirSync(dir);
  chmodSync(dir, 0o755);
  return dir;
}

/** Whether `uid` can read `file` (every folder above it included), asked of a process running as that user. */
function canRead(uid: number, gid: number, file: string): boolean {
  const probe = spawnSync(process.execPath, ['-e', 'require("node:fs").accessSync(process.argv[1], 4)', file], {
    uid,
    gid,
    stdio: 'ignore',
  });
  return probe.status === 0;
}

function temps(dir: string): string[] {
  return readdirSync(dir).filter((f) => f.startsWith('.devboy-'));
}

const ROWS = '{"id":1,"title":"first"}\n{"id":2,"title":"second"}\n';
const GCF = 'GCF profile=generic\n## rows [?]{id,title}\n1|first\n2|second\n##! summary counts=2\n';

function rowsFile(dir: string): string {
  const file = join(dir, 'rows.ndjson');
  writeFileSync(file, ROWS);
  return file;
}

/** A character device like /dev/null (major 1, minor 3), made here; skips when mknod is not allowed. */
function nullDevice(t: TestContext, dir: string): string | undefined {
  const dev = join(dir, 'nulldev');
  try {
    execFileSync('mknod', [dev, 'c', '1', '3'], { stdio: 'ignore' });
  } catch {
    t.skip('mknod is not permitted here (needs root): cannot make a device to write to');
    return undefined;
  }
  return dev;
}

/** Read a FIFO in another process, so that a writer that never opens it cannot hang this one. */
function readFifo(fifo: string): { text: Promise<string>; stop: () => void } {
  const cat = spawn('cat', [fifo], { stdio: ['ignore', 'pipe', 'ignore'] });
  let out = '';
  cat.stdout.setEncoding('utf8').on('data', (d: string) => (out += d));
  const text = new Promise<string>((resolve) => cat.on('close', () => resolve(out)));
  return { text, stop: () => cat.kill('SIGKILL') };
}

async function within<T>(ms: number, what: string, promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

describe('-o onto a device, FIFO or socket: written directly, never replaced', () => {
  it('a character device stays the device, whole-file and streamed', async (t) => {
    const dir = freshDir();
    const dev = nullDevice(t, dir);
    if (!dev) return;
    const before = statSync(dev);
    await writeFileAtomic(dev, 'discarded\n');
    await streamConvert({ source: rowsFile(dir), to: 'gcf', output: dev });
    const r = await runCli(['convert', rowsFile(dir), '--to', 'toon', '-o', dev]);
    assert.equal(r.code, 0, r.stderr);
    const now = lstatSync(dev);
    assert.ok(now.isCharacterDevice(), 'still a character device');
    assert.equal(now.rdev, before.rdev);
    assert.equal(now.ino, before.ino);
    assert.deepEqual(temps(dir), []);
  });

  it('a FIFO gets the whole output and an end of file, and stays a FIFO', async () => {
    const dir = freshDir();
    const fifo = join(dir, 'pipe');
    execFileSync('mkfifo', [fifo]);
    const whole = readFifo(fifo);
    try {
      await within(10_000, 'whole-file write to a FIFO', writeFileAtomic(fifo, 'all of it\n'));
      assert.equal(await within(10_000, 'reader of the FIFO', whole.text), 'all of it\n');
    } finally {
      whole.stop();
    }
    const streamed = readFifo(fifo);
    try {
      await within(10_000, 'streamed write to a FIFO', streamConvert({ source: rowsFile(dir), to: 'gcf', output: fifo }));
      assert.equal(await within(10_000, 'reader of the FIFO', streamed.text), GCF);
    } finally {
      streamed.stop();
    }
    const viaCli = readFifo(fifo);
    try {
      const r = await within(20_000, 'devboy convert -o FIFO', runCliProcess(['convert', rowsFile(dir), '--to', 'gcf', '-o', fifo]));
      assert.equal(r.code, 0, r.stderr);
      assert.match(await within(10_000, 'reader of the FIFO', viaCli.text), /^GCF profile=generic\n/);
    } finally {
      viaCli.stop();
    }
    assert.ok(lstatSync(fifo).isFIFO(), 'still a FIFO');
    assert.deepEqual(temps(dir), []);
  });

  it('a Unix socket gets the output over a connection, and stays a socket', async () => {
    const dir = freshDir();
    const path = join(dir, 'sock');
    const received: string[] = [];
    const server = createServer((conn) => {
      let text = '';
      conn.setEncoding('utf8').on('data', (d: string) => (text += d));
      conn.on('end', () => received.push(text));
    });
    await new Promise<void>((resolve) => server.listen(path, resolve));
    try {
      await within(10_000, 'write to a socket', writeFileAtomic(path, 'over the socket\n'));
      await within(10_000, 'streamed write to a socket', streamConvert({ source: rowsFile(dir), to: 'gcf', output: path }));
      const deadline = Date.now() + 10_000;
      while (received.length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      assert.deepEqual(received, ['over the socket\n', GCF]);
      assert.ok(lstatSync(path).isSocket(), 'still a socket');
      assert.deepEqual(temps(dir), []);
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('-o /proc/self/fd/1 writes to the process own standard output, keeping its append position', async () => {
    // Like -o /dev/stdout, without touching /dev: procfs entries cannot be renamed over.
    const dir = freshDir();
    const log = join(dir, 'log.txt');
    writeFileSync(log, 'earlier line\n');
    const fd = openSync(log, 'a');
    try {
      const child = spawn(
        process.execPath,
        [join(REPO_ROOT, 'bin', 'run.js'), 'convert', rowsFile(dir), '--to', 'json-compact', '-o', '/proc/self/fd/1'],
        { stdio: ['ignore', fd, 'pipe'], cwd: dir },
      );
      let stderr = '';
      child.stderr!.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
      assert.equal(code, 0, stderr);
    } finally {
      closeSync(fd);
    }
    assert.equal(readFileSync(log, 'utf8'), 'earlier line\n[{"id":1,"title":"first"},{"id":2,"title":"second"}]\n');
  });

  it('-o - is standard output, not a file named "-"', async () => {
    const dir = freshDir();
    const whole = await runCliProcess(['convert', rowsFile(dir), '--to', 'json-compact', '-o', '-'], { cwd: dir });
    assert.equal(whole.code, 0, whole.stderr);
    assert.equal(whole.stdout, '[{"id":1,"title":"first"},{"id":2,"title":"second"}]\n');
    const streamed = await runCliProcess(['convert', rowsFile(dir), '--to', 'gcf', '--stream', '-o', '-'], { cwd: dir });
    assert.equal(streamed.code, 0, streamed.stderr);
    assert.equal(streamed.stdout, GCF);
    assert.ok(!readdirSync(dir).includes('-'), 'no file named -');
  });
});

describe('names that stand for an open descriptor', () => {
  it('are recognised by name alone (nothing here opens or stats /dev)', () => {
    const cases: Array<[string, number | undefined]> = [
      ['-', 1],
      ['/dev/stdout', 1],
      ['/dev/stderr', 2],
      ['/dev/fd/1', 1],
      ['/dev/fd/7', 7],
      ['/proc/self/fd/2', 2],
      ['/proc/thread-self/fd/3', 3],
      [`/proc/${process.pid}/fd/4`, 4],
      [`/proc/${process.pid + 1}/fd/4`, undefined],
      ['/dev/null', undefined],
      ['out.json', undefined],
      ['./-', undefined],
    ];
    for (const [path, fd] of cases) assert.equal(descriptorOf(path), fd, path);
  });

  it('a descriptor that is not open is a one-line error, not a crash', async () => {
    const err = await resolveOutputTarget('/proc/self/fd/987').catch((e: unknown) => e);
    assert.ok(err instanceof DataError);
    assert.equal(err.oneLine(), '/proc/self/fd/987: cannot write: file descriptor 987 is not open');
  });
});

describe('-o onto a regular file: replaced atomically, keeping what the user set up', () => {
  it('a symlink stays a symlink; the file it points to gets the content', async () => {
    const dir = freshDir();
    mkdirSync(join(dir, 'real'));
    writeFileSync(join(dir, 'real', 'target.txt'), 'old\n');
    symlinkSync('real/target.txt', join(dir, 'link.txt'));
    await writeFileAtomic(join(dir, 'link.txt'), 'whole\n');
    assert.ok(lstatSync(join(dir, 'link.txt')).isSymbolicLink());
    assert.equal(readlinkSync(join(dir, 'link.txt')), 'real/target.txt');
    assert.equal(readFileSync(join(dir, 'real', 'target.txt'), 'utf8'), 'whole\n');

    await streamConvert({ source: rowsFile(dir), to: 'gcf', output: join(dir, 'link.txt') });
    assert.ok(lstatSync(join(dir, 'link.txt')).isSymbolicLink());
    assert.equal(readFileSync(join(dir, 'real', 'target.txt'), 'utf8'), GCF);
    assert.deepEqual(temps(dir), []);
    assert.deepEqual(temps(join(dir, 'real')), []);
  });

  it('a symlink to a file not yet there creates that file and stays a symlink', async () => {
    const dir = freshDir();
    symlinkSync('made-later.txt', join(dir, 'dangling'));
    await writeFileAtomic(join(dir, 'dangling'), 'now here\n');
    assert.ok(lstatSync(join(dir, 'dangling')).isSymbolicLink());
    assert.equal(readFileSync(join(dir, 'made-later.txt'), 'utf8'), 'now here\n');
  });

  it('keeps the mode of the file it replaces (0600 stays 0600); a new file gets the usual umask mode', async () => {
    const dir = freshDir();
    for (const mode of [0o600, 0o640, 0o755]) {
      const file = join(dir, `secret-${mode.toString(8)}`);
      writeFileSync(file, 'old\n');
      chmodSync(file, mode);
      await writeFileAtomic(file, 'new\n');
      assert.equal(statSync(file).mode & 0o7777, mode, `whole-file write keeps ${mode.toString(8)}`);
      await streamConvert({ source: rowsFile(dir), to: 'gcf', output: file });
      assert.equal(statSync(file).mode & 0o7777, mode, `streamed write keeps ${mode.toString(8)}`);
    }
    writeFileSync(join(dir, 'plain'), '');
    await writeFileAtomic(join(dir, 'fresh'), 'x');
    assert.equal(statSync(join(dir, 'fresh')).mode & 0o7777, statSync(join(dir, 'plain')).mode & 0o7777);
  });

  it('a 244-character file name, valid on every common file system, works', async () => {
    const dir = freshDir();
    const name = `${'n'.repeat(240)}.gcf`;
    assert.equal(name.length, 244);
    await writeFileAtomic(join(dir, name), 'whole\n');
    assert.equal(readFileSync(join(dir, name), 'utf8'), 'whole\n');
    await streamConvert({ source: rowsFile(dir), to: 'gcf', output: join(dir, name) });
    assert.equal(readFileSync(join(dir, name), 'utf8'), GCF);
    const r = await runCli(['convert', rowsFile(dir), '--to', 'gcf', '-o', join(dir, name)]);
    assert.equal(r.code, 0, r.stderr);
    assert.deepEqual(temps(dir), []);
  });
});

describe('-o that cannot be written: one line naming the path, exit 1, nothing left behind', () => {
  it('a folder', async () => {
    const dir = freshDir();
    mkdirSync(join(dir, 'folder'));
    const r = await runCli(['convert', rowsFile(dir), '--to', 'toon', '-o', join(dir, 'folder')]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `devboy convert: ${join(dir, 'folder')}: cannot write: it is a folder\n`);
    const s = await runCli(['convert', rowsFile(dir), '--to', 'gcf', '--stream', '-o', join(dir, 'folder')]);
    assert.equal(s.code, 1);
    assert.equal(s.stderr, `devboy convert: ${join(dir, 'folder')}: cannot write: it is a folder\n`);
    assert.deepEqual(readdirSync(join(dir, 'folder')), []);
    assert.deepEqual(temps(dir), []);
  });

  it('a missing parent folder', async () => {
    const dir = freshDir();
    const target = join(dir, 'no', 'such', 'out.toon');
    const r = await runCli(['convert', rowsFile(dir), '--to', 'toon', '-o', target]);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `devboy convert: ${target}: cannot write: the folder ${join(dir, 'no', 'such')} does not exist (create it with mkdir -p ${join(dir, 'no', 'such')})\n`,
    );
    const err = await writeFileAtomic(target, 'x').catch((e: unknown) => e);
    assert.ok(err instanceof DataError);
    assert.equal(
      err.oneLine(),
      `${target}: cannot write: the folder ${join(dir, 'no', 'such')} does not exist (create it with mkdir -p ${join(dir, 'no', 'such')})`,
    );
  });

  it('a parent that is a file', async () => {
    const dir = freshDir();
    writeFileSync(join(dir, 'plain'), '');
    const err = await writeFileAtomic(join(dir, 'plain', 'out'), 'x').catch((e: unknown) => e);
    assert.ok(err instanceof DataError);
    assert.equal(err.oneLine(), `${join(dir, 'plain', 'out')}: cannot write: ${join(dir, 'plain')} is not a folder`);
  });

  it('a read-only folder: says so, and leaves the existing file as it was', async (t) => {
    const dir = freshDir();
    const locked = join(dir, 'locked');
    mkdirSync(locked);
    writeFileSync(join(locked, 'out.toon'), 'previous\n');
    chmodSync(join(locked, 'out.toon'), 0o666);
    chmodSync(locked, 0o555);
    // root ignores folder permissions; run devboy as an unprivileged user then.
    const asUser = process.getuid?.() === 0 ? { uid: 65534, gid: 65534, env: { HOME: dir } } : {};
    if (asUser.uid !== undefined && !canRead(asUser.uid, asUser.gid, join(REPO_ROOT, 'bin', 'run.js'))) {
      // A clone under a folder only root may enter (as `mktemp -d` makes) keeps that user out of devboy itself.
      t.skip(`user ${asUser.uid} cannot read ${REPO_ROOT}: the check needs a user that folder permissions apply to`);
      return;
    }
    const r = await runCliProcess(['convert', rowsFile(dir), '--to', 'toon', '-o', join(locked, 'out.toon')], asUser);
    if (r.code === 0 && process.getuid?.() !== 0) {
      t.skip('this file system does not enforce folder permissions');
      return;
    }
    assert.equal(r.code, 1, r.stderr);
    assert.equal(
      r.stderr,
      `devboy convert: ${join(locked, 'out.toon')}: cannot write: permission denied to create a file in ${locked} (devboy writes a temporary file beside the target and renames it into place)\n`,
    );
    assert.equal(readFileSync(join(locked, 'out.toon'), 'utf8'), 'previous\n');
    assert.deepEqual(temps(locked), []);
  });
});
