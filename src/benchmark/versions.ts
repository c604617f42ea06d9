import type { TokenizerName } from '../tokens/types.js';
import { packageVersion } from '../versions.js';

/** What each tokenizer is, for reports: a number is only as good as its named tokenizer. */
export function tokenizerImplementation(name: TokenizerName): string {
  switch (name) {
    case 'heuristic':
      return 'ceil(UTF-8 bytes / 3.5), an estimate (devboy-tools)';
    case 'o200k_base':
    case 'cl100k_base':
      return `gpt-tokenizer ${packageVersion('gpt-tokenizer')}, ${name} BPE`;
  }
}
