import { existsSync, readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (tests run from dist/test/, two levels below it). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/**
 * The project's own embedded corpus. Tests assert figures of this data, so DEVBOY_CORPUS (which a
 * user may point at a corpus of their own) is deliberately not consulted.
 */
export function corpusDir(): string {
  const dir = resolve(REPO_ROOT, 'corpus');
  if (!existsSync(dir)) throw new Error(`corpus not found at ${dir}`);
  return dir;
}

/** Where test fixtures (data, not code) live: the source tree, not dist. */
export const FIXTURES = resolve(REPO_ROOT, 'test', 'fixtures');

/** Every command, as the built manifest lists them (the CLI's own registry of commands). */
export function commandIds(): string[] {
  const manifest = JSON.parse(readFileSync(resolve(REPO_ROOT, 'oclif.manifest.json'), 'utf8')) as { commands: Record<string, unknown> };
  return Object.keys(manifest.commands).sort();
}
