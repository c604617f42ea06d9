import type { Tokenizer } from '../tokens/types.js';

/**
 * Counting is the benchmark's main cost, and the same text recurs (a level that equals another,
 * one page that is the whole dataset): count each distinct text once per tokenizer.
 */
export class TokenCache {
  private readonly counts = new Map<string, number>();
  hits = 0;
  misses = 0;

  constructor(readonly tokenizer: Tokenizer) {}

  count = (text: string): number => {
    const known = this.counts.get(text);
    if (known !== undefined) {
      this.hits++;
      return known;
    }
    this.misses++;
    const n = this.tokenizer.count(text);
    this.counts.set(text, n);
    return n;
  };
}
