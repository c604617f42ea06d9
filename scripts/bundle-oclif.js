// Bundles the parts of oclif devboy uses at run time into one file, dist/oclif.cjs.
// Why: oclif is about 140 CommonJS files across 30 packages; resolving, reading and compiling them
// was a third of a small convert's start-up (`npm run bench -- --only startup`). One minified file
// loads in about half that. Names are kept because oclif and devboy read error and class names.
import { build } from 'esbuild';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

// Every oclif name devboy's code and tests use at run time; src/cli/oclif.ts re-exports them typed.
const entry = `
module.exports = {
  execute: require('@oclif/core/execute').execute,
  Args: require('@oclif/core/args'),
  Errors: require('@oclif/core/errors'),
  Flags: require('@oclif/core/flags'),
  Command: require('@oclif/core/command').Command,
  Config: require('@oclif/core/config').Config,
  Help: require('@oclif/core/help'),
};
`;

await build({
  stdin: { contents: entry, resolveDir: root, sourcefile: 'oclif-entry.cjs', loader: 'js' },
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  minify: true,
  keepNames: true,
  // oclif requires typescript only to read a tsconfig in development mode, and falls back without it.
  external: ['typescript'],
  legalComments: 'eof',
  outfile: `${root}dist/oclif.cjs`,
  logLevel: 'warning',
});
