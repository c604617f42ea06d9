import { mdCode } from '../escape/markdown.js';
import { tokenizerLabel } from '../tokens/registry.js';
import { TOKENIZER_NAMES } from '../tokens/types.js';

/** A tokenizer as a Markdown report names it: devboy's label for its own, a code span for a name a result file made up. */
export function mdTokenizer(name: string): string {
  return (TOKENIZER_NAMES as readonly string[]).includes(name) ? tokenizerLabel(name) : mdCode(name);
}
