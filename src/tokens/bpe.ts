import type { Tokenizer, TokenizerName } from './types.js';

type BpeName = Exclude<TokenizerName, 'heuristic'>;

// Special-token text such as "<|endoftext|>" in tool output is ordinary text to count, not an error.
const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** A real BPE tokenizer from gpt-tokenizer. Each encoding's rank table loads only on first use. */
export async function loadBpe(name: BpeName): Promise<Tokenizer> {
  const mod =
    name === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base');
  const countTokens = mod.countTokens as (text: string, options?: object) => number;
  return {
    name,
    estimate: false,
    count: (text: string) => (text.length === 0 ? 0 : countTokens(text, AS_TEXT)),
  };
}
