// Writes oclif.manifest.json so the CLI lists and dispatches commands without importing them all.
// (The `oclif` packaging CLI does the same, but pulls ~190 packages in for this one step.)
import { Plugin } from '@oclif/core';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const plugin = new Plugin({ root, type: 'core', ignoreManifest: true, errorOnManifestCreate: true, isRoot: true });
await plugin.load();
const manifest = plugin.manifest;
if (Object.keys(manifest.commands).length === 0) {
  console.error('write-manifest: no commands found under dist/commands');
  process.exit(1);
}
writeFileSync(new URL('../oclif.manifest.json', import.meta.url), `${JSON.stringify(manifest, null, 2)}\n`);
