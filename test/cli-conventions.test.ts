import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { closestCommand } from '../src/cli/not-found.js';
import { runCli } from './helpers/cli.js';
import { commandIds, REPO_ROOT } from './helpers/paths.js';

const VERSION = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const COMMANDS = commandIds();

describe('oclif conventions: help, -h, -v, mistyped commands', () => {
  it('devboy help lists every command; devboy help COMMAND shows its flags', async () => {
    const root = await runCli(['help']);
    assert.equal(root.code, 0, root.stderr);
    assert.match(root.stdout, /^USAGE\n {2}\$ devboy \[COMMAND\]$/m);
    for (const c of COMMANDS) assert.match(root.stdout, new RegExp(`^ {2}${c} +\\S`, 'm'), c);
    const one = await runCli(['help', 'benchmark']);
    assert.equal(one.code, 0, one.stderr);
    assert.match(one.stdout, /^ {2}\$ devboy benchmark /m);
    assert.match(one.stdout, /--baseline=<value>/);
    assert.equal(one.stderr, '');
  });

  it('a mistyped command: exit 2, one line in devboy style, the closest command suggested', async () => {
    const r = await runCli(['bench', '--runs', '1']);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'devboy: bench is not a devboy command; did you mean benchmark?\n');
    const typo = await runCli(['convrt', 'x.json']);
    assert.equal(typo.stderr, 'devboy: convrt is not a devboy command; did you mean convert?\n');
    const far = await runCli(['zzz']);
    assert.equal(far.code, 2);
    assert.equal(far.stderr, `devboy: zzz is not a devboy command; the commands are ${COMMANDS.join(', ')}\n`);
    const flag = await runCli(['--nope']);
    assert.equal(flag.code, 2);
    assert.equal(flag.stderr, 'devboy: unknown flag --nope; flags go after a command (devboy help COMMAND lists them)\n');
  });

  it('devboy help with a mistyped command: exit 2, the same line', async () => {
    const r = await runCli(['help', 'sesion']);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'devboy: sesion is not a devboy command; did you mean session?\n');
  });

  it('closest command: prefixes and small typos only', () => {
    const ids = ['benchmark', 'convert', 'format', 'help', 'record', 'session'];
    assert.equal(closestCommand('bench', ids), 'benchmark');
    assert.equal(closestCommand('benhcmark', ids), 'benchmark');
    assert.equal(closestCommand('form', ids), 'format');
    assert.equal(closestCommand('recrod', ids), 'record');
    assert.equal(closestCommand('Convert', ids), 'convert');
    assert.equal(closestCommand('x', ids), undefined);
    assert.equal(closestCommand('upload', ids), undefined);
  });

  // -h, -v and --help are handled before any command runs: they need a real process.
  it('-h and --help show the root help, -v and --version the version: exit 0', async () => {
    const [h, help, v, version, sub] = await Promise.all([
      runCli(['-h'], { subprocess: true }),
      runCli(['--help'], { subprocess: true }),
      runCli(['-v'], { subprocess: true }),
      runCli(['--version'], { subprocess: true }),
      runCli(['convert', '-h'], { subprocess: true }),
    ]);
    for (const r of [h, help, v, version, sub]) assert.equal(r.code, 0, r.stderr);
    assert.equal(h.stdout, help.stdout);
    assert.match(h.stdout, /^USAGE\n {2}\$ devboy \[COMMAND\]$/m);
    assert.equal(v.stdout, version.stdout);
    assert.match(v.stdout, new RegExp(`^devboy/${VERSION.replace(/\./g, '\\.')} \\S+ node-v\\d+`));
    assert.match(sub.stdout, /^ {2}\$ devboy convert /m);
  });

  it('--help on a mistyped command: exit 2, the same one line, no oclif banner', async () => {
    const r = await runCli(['bench', '--help'], { subprocess: true });
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, 'devboy: bench is not a devboy command; did you mean benchmark?\n');
  });
});
