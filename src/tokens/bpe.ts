import type { Tokenizer, TokenizerName } from './types.js';

type BpeName = Exclude<TokenizerName, 'heuristic'>;

/**
 * A real BPE tokenizer with gpt-tokenizer's tables and counts (special-token text such as
 * "<|endoftext|>" in tool output is counted as ordinary text) but a merge that stays fast on long
 * pieces (src/tokens/bpe-counter.ts). Each encoding's rank table loads only on first use.
 *
 * From gpt-tokenizer 4.0.0 this uses its rank tables (gpt-tokenizer/bpeRanks/*, the arrays its own
 * encoding modules pass to GptEncoding), its pre-tokenizing regexes (gpt-tokenizer/encodingParams/constants)
 * and its UTF-8 check (gpt-tokenizer/utfUtil), all reachable through the package's "./*" export.
 * They are not in its README, so the version is pinned and test/tokens-bpe-*.test.ts compare every
 * count against the library's countTokens.
 */
export async function loadBpe(name: BpeName): Promise<Tokenizer> {
  const [{ BpeCounter }, { O200K_TOKEN_SPLIT_REGEX, CL100K_TOKEN_SPLIT_REGEX }, ranks] = await Promise.all([
    import('./bpe-counter.js'),
    import('gpt-tokenizer/encodingParams/constants'),
    name === 'o200k_base' ? import('gpt-tokenizer/bpeRanks/o200k_base') : import('gpt-tokenizer/bpeRanks/cl100k_base'),
  ]);
  const counter = new BpeCounter(ranks.default, name === 'o200k_base' ? O200K_TOKEN_SPLIT_REGEX : CL100K_TOKEN_SPLIT_REGEX);
  return { name, estimate: false, count: (text: string) => counter.count(text) };
}
