import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Versions as installed, read from each package's own package.json: a report that names
 * "@toon-format/toon 4.4.0" must name what really ran, and a version written in code drifts.
 */

const HERE = dirname(fileURLToPath(import.meta.url));
const cache = new Map<string, string>();

/** devboy's own version (its package.json sits two levels above dist/src/). */
export function devboyVersion(): string {
  return cached('devboy', () => readVersion(findUp(HERE, 'package.json', (p) => readName(p) === 'devboy')));
}

/** A field of devboy's own package.json (e.g. the pinned optional tokenizer packages). */
export function devboyManifestField(field: string): unknown {
  const path = findUp(HERE, 'package.json', (p) => readName(p) === 'devboy');
  return (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>)[field];
}

/** The installed version of a dependency, found the way Node resolves packages (node_modules upwards). */
export function packageVersion(name: string): string {
  return cached(name, () => readVersion(findUp(HERE, join('node_modules', name, 'package.json'))));
}

function cached(key: string, read: () => string): string {
  let v = cache.get(key);
  if (v === undefined) cache.set(key, (v = read()));
  return v;
}

function findUp(from: string, relative: string, accept: (path: string) => boolean = () => true): string {
  for (let dir = from; ; dir = dirname(dir)) {
    const path = join(dir, relative);
    if (existsSync(path) && accept(path)) return path;
    if (dirname(dir) === dir) throw new Error(`${relative} not found above ${from}`);
  }
}

function readName(path: string): string | undefined {
  return (JSON.parse(readFileSync(path, 'utf8')) as { name?: string }).name;
}

function readVersion(path: string): string {
  const version = (JSON.parse(readFileSync(path, 'utf8')) as { version?: unknown }).version;
  if (typeof version !== 'string') throw new Error(`${path} has no version`);
  return version;
}
