#!/usr/bin/env node
// Installs the optional model-family tokenizers (package.json "optionalTokenizers") and the second
// implementations the tests check them against ("tokenizerReferences"), at their pinned versions,
// without writing package.json or package-lock.json: `npm ci` alone stays lean, and .ci/run calls
// this after it so the tests cover every family. `--families` installs the families only.
// Then it loads each family once, which compiles its tokenizer.json into devboy's cache
// (docs/tokenizers.md, "The compiled cache"): every later process, the tests' too, starts warm.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const families = Object.keys(manifest.optionalTokenizers ?? {});
const specs = [
  ...Object.values(manifest.optionalTokenizers ?? {}),
  ...(process.argv.includes('--families') ? [] : Object.values(manifest.tokenizerReferences ?? {})),
];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const args = ['install', '--no-save', '--no-audit', '--no-fund', '--save-exact', ...new Set(specs)];
process.stderr.write(`install-tokenizers: npm ${args.join(' ')}\n`);
const run = spawnSync(npm, args, { cwd: root, stdio: 'inherit' });
if (run.status !== 0) process.exit(run.status ?? 1);

// The loader is TypeScript: emit dist/ first, as npm test does.
const built = spawnSync(process.execPath, ['scripts/build-dist.js'], { cwd: root, stdio: 'inherit' });
if (built.status !== 0) process.exit(built.status ?? 1);
const { loadTokenizer } = await import(pathToFileURL(`${root}dist/src/tokens/registry.js`).href);
for (const family of families) {
  await loadTokenizer(family);
  process.stderr.write(`install-tokenizers: loaded ${family}\n`);
}
