#!/usr/bin/env node
// Installs the optional model-family tokenizers (package.json "optionalTokenizers") and the second
// implementations the tests check them against ("tokenizerReferences"), at their pinned versions,
// without writing package.json or package-lock.json: `npm ci` alone stays lean, and .ci/run calls
// this after it so the tests cover every family. `--families` installs the families only.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const manifest = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const specs = [
  ...Object.values(manifest.optionalTokenizers ?? {}),
  ...(process.argv.includes('--families') ? [] : Object.values(manifest.tokenizerReferences ?? {})),
];
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const args = ['install', '--no-save', '--no-audit', '--no-fund', '--save-exact', ...new Set(specs)];
process.stderr.write(`install-tokenizers: npm ${args.join(' ')}\n`);
const run = spawnSync(npm, args, { cwd: root, stdio: 'inherit' });
process.exit(run.status ?? 1);
