import { CL100K_TOKEN_SPLIT_REGEX, O200K_TOKEN_SPLIT_REGEX } from 'gpt-tokenizer/encodingParams/constants';
import { BpeCounter } from '../../src/tokens/bpe-counter.js';
import { ByteRanks } from '../../src/tokens/byte-ranks.js';

export const BPE_NAMES = ['o200k_base', 'cl100k_base'] as const;
export type BpeName = (typeof BPE_NAMES)[number];

/** How devboy has always counted: the library's countTokens with special-token text as text. */
export type Count = (text: string) => number;

const AS_TEXT = { disallowedSpecial: new Set<string>() };

/** gpt-tokenizer's own countTokens, the reference every count must equal. */
export async function libraryCount(name: BpeName): Promise<Count> {
  const mod =
    name === 'o200k_base' ? await import('gpt-tokenizer/encoding/o200k_base') : await import('gpt-tokenizer/encoding/cl100k_base');
  return (text) => mod.countTokens(text, AS_TEXT);
}

export async function rawRanks(name: BpeName): Promise<readonly (string | readonly number[])[]> {
  const mod =
    name === 'o200k_base' ? await import('gpt-tokenizer/bpeRanks/o200k_base') : await import('gpt-tokenizer/bpeRanks/cl100k_base');
  return mod.default;
}

/**
 * Counters that send every piece through one merge, whatever its length, so both merges meet the
 * reference on short text the library can count quickly.
 */
export async function forcedCounters(name: BpeName): Promise<{ scan: BpeCounter; buckets: BpeCounter }> {
  // One table for both: it is read-only, and building one from the raw ranks costs about 40 ms (o200k_base).
  const ranks = new ByteRanks(await rawRanks(name));
  const split = name === 'o200k_base' ? O200K_TOKEN_SPLIT_REGEX : CL100K_TOKEN_SPLIT_REGEX;
  return { scan: new BpeCounter(ranks, split, Number.POSITIVE_INFINITY), buckets: new BpeCounter(ranks, split, 0) };
}
