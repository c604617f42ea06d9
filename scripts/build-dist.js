// Emits dist/ from the TypeScript sources, one output file per source file, then the oclif bundle
// and the command manifest. Why esbuild and not tsc's emit: esbuild strips the types of every file
// in well under a second where tsc takes about 10 s, and `npm test` runs this before every test run.
// The types are still checked, by tsc --noEmit, in `npm run build` and `npm run lint` (both in CI).
// verbatimModuleSyntax in tsconfig.json keeps the two emits the same: every import is kept or
// dropped as written, so stripping types needs no knowledge of other files.
import { build } from 'esbuild';
import { readdirSync, rmSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
// The folders tsconfig.json includes.
const SOURCE_DIRS = ['src', 'commands', 'test', 'bench'];

function tsFiles(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsFiles(path);
    return entry.isFile() && entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [relative(root, path)] : [];
  });
}

// A fresh dist/: a deleted source file must not leave its old output (a stale test would still run).
rmSync(join(root, 'dist'), { recursive: true, force: true });
await build({
  absWorkingDir: root,
  entryPoints: SOURCE_DIRS.flatMap((dir) => tsFiles(join(root, dir))),
  outdir: 'dist',
  outbase: '.',
  bundle: false,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  sourcemap: true,
  tsconfig: 'tsconfig.json',
  logLevel: 'warning',
});
await import('./bundle-oclif.js');
await import('./write-manifest.js');
