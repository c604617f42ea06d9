import type { TokenizerName } from '../tokens/types.js';

/** What each tokenizer is, for reports: a number is only as good as its named tokenizer. */
export const TOKENIZER_IMPLEMENTATION: Record<TokenizerName, string> = {
  heuristic: 'ceil(UTF-8 bytes / 3.5), an estimate (devboy-tools)',
  o200k_base: 'gpt-tokenizer 4.0.0, o200k_base BPE',
  cl100k_base: 'gpt-tokenizer 4.0.0, cl100k_base BPE',
};
