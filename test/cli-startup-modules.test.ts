import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { after, describe, it } from 'node:test';
import { REPO_ROOT } from './helpers/paths.js';

// Start-up is measured in `npm run bench -- --only startup`; this checks the design that keeps it
// low, which a timing test could not: what a small command loads. ES modules are seen by a resolve
// hook; CommonJS ones by the require cache at exit.
const HOOK = `
export async function resolve(specifier, context, next) {
  const r = await next(specifier, context);
  if (r.url.startsWith('file:')) process.stderr.write('LOADED ' + r.url + '\\n');
  return r;
}`;
const PRELOAD = `
import { register, createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
register('data:text/javascript,' + encodeURIComponent(${JSON.stringify(HOOK)}));
const cache = createRequire(process.cwd() + '/').cache;
process.on('exit', () => { for (const f of Object.keys(cache)) process.stderr.write('LOADED ' + pathToFileURL(f).href + '\\n'); });
`;

function loadedFiles(args: string[]): string[] {
  const r = spawnSync(
    process.execPath,
    ['--import', `data:text/javascript,${encodeURIComponent(PRELOAD)}`, resolve(REPO_ROOT, 'bin', 'run.js'), ...args],
    {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1' },
    },
  );
  assert.equal(r.status, 0, r.stderr);
  const files = r.stderr
    .split('\n')
    .filter((l) => l.startsWith('LOADED '))
    .map((l) => relative(REPO_ROOT, fileURLToPath(l.slice('LOADED '.length))));
  assert.ok(files.length > 0, 'the hooks saw no module: the check itself is broken');
  return [...new Set(files)];
}

// Wherever node_modules is: a checkout whose node_modules links to another's (a git worktree) loads
// its packages from there, and Node reports the path the link points to.
const packageOf = (file: string) => /(?:^|\/)node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];

describe('start-up: what a small command loads', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'devboy-startup-'));
  after(() => rmSync(tmp, { recursive: true, force: true }));
  const small = join(tmp, 'small.json');
  writeFileSync(small, JSON.stringify({ issues: [{ key: 'gh#1', title: 'a' }] }));

  it('convert --to toon: oclif from its one bundled file, and of the packages only TOON', () => {
    const files = loadedFiles(['convert', small, '--to', 'toon']);
    assert.ok(files.includes('dist/oclif.cjs'), files.join('\n'));
    assert.deepEqual([...new Set(files.map(packageOf).filter((p) => p !== undefined))], ['@toon-format/toon']);
  });

  it('proxy --help: no package either (the MCP SDK loads only when a proxy runs)', () => {
    const files = loadedFiles(['proxy', '--help']);
    assert.deepEqual(
      files.map(packageOf).filter((p) => p !== undefined),
      [],
    );
  });

  it('--help: no package at all beside the bundle', () => {
    const files = loadedFiles(['--help']);
    assert.ok(files.includes('dist/oclif.cjs'), files.join('\n'));
    assert.deepEqual(
      files.map(packageOf).filter((p) => p !== undefined),
      [],
    );
  });
});
