import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { packageRoot } from './optional.js';
import type { TokenizerName } from './types.js';

/** The @lenml/tokenizers version a family package runs on (resolved from that package, as the loader does). */
export function lenmlLibraryVersion(name: TokenizerName): string {
  const main = createRequire(join(packageRoot(name), 'package.json')).resolve('@lenml/tokenizers');
  // main is <package>/dist/main.js.
  return (JSON.parse(readFileSync(join(dirname(main), '..', 'package.json'), 'utf8')) as { version: string }).version;
}
