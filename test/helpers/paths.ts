import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** Repository root (tests run from dist/test/, two levels below it). */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..', '..');

/** The recorded corpus: DEVBOY_CORPUS, else ../shared/corpus beside the repository. */
export function corpusDir(): string {
  const dir = process.env.DEVBOY_CORPUS ?? resolve(REPO_ROOT, '..', 'shared', 'corpus');
  if (!existsSync(dir)) throw new Error(`corpus not found at ${dir} (set DEVBOY_CORPUS)`);
  return dir;
}

/** Where test fixtures (data, not code) live: the source tree, not dist. */
export const FIXTURES = resolve(REPO_ROOT, 'test', 'fixtures');
