import { TOKENIZERS } from '../tokens/registry.js';
import type { TokenizerName } from '../tokens/types.js';

/** What each tokenizer is, for reports: a number is only as good as its named tokenizer. */
export function tokenizerImplementation(name: TokenizerName): string {
  return TOKENIZERS[name].implementation();
}
