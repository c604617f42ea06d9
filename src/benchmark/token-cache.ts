import type { Tokenizer, TokenizerName } from '../tokens/types.js';
import { NO_CLOCK, type Clock } from './phases.js';

/**
 * Tokenizers whose count is additive at a split after an ASCII letter that is followed by an
 * ASCII character other than a letter or an apostrophe: count(a + b) === count(a) + count(b).
 * Their pre-tokenizing regexes (tiktoken's o200k_base and cl100k_base patterns) put every letter
 * in a piece made of letters (and marks, and an optional first non-letter), ended only by a
 * contraction such as `'s`; they have no anchors or look-behind, so the pieces after the split
 * are the pieces of `b` alone, and those before it the pieces of `a` alone. BPE then merges
 * within pieces only. test/token-cache.test.ts checks the law on the corpus and on random text.
 */
const SPLITS_AFTER_LETTERS: ReadonlySet<TokenizerName> = new Set<TokenizerName>(['o200k_base', 'cl100k_base']);

/**
 * Coarse cuts are the safe points picked by a hash of the WINDOW characters before them (about
 * one in COARSE_ONE_IN, none within COARSE_MIN of the previous cut): content-defined, so the same
 * content is cut at the same places in every text it appears in, whatever comes before it.
 */
const WINDOW = 8;
const COARSE_ONE_IN = 16;
const COARSE_MIN = 48;
/** Whole texts remembered by the exact-text lookup (by length: a text is compared, never hashed). */
const RECENT_TEXTS = 4;

/**
 * Counting is the benchmark's main cost, and the same text recurs: a level equal to another, the
 * whole list the page planner starts from, and above all the planner's and the trimmer's chunks,
 * which are the same items encoded again in other groupings. Each distinct text is counted once
 * per tokenizer; for the BPE tokenizers above, a new text is cut at safe points into segments in
 * two sizes: coarse segments of some tens of characters, looked up first (a chunk re-encoding
 * items already counted is a scan and a lookup per coarse segment), and, for a coarse segment not
 * seen before, fine segments between consecutive safe points (a string that another format or
 * level already showed). Only fine segments never seen are given to the tokenizer. Counts are
 * exact: the sum over segments is the count of the text.
 *
 * Memory is what the current scope counted: `clear()` between datasets keeps the cache from
 * growing with the corpus (a chunk shares its text with its own dataset, rarely with another).
 */
export class TokenCache {
  private readonly recent = new Map<number, { text: string; n: number }>();
  private readonly coarse = new Map<string, number>();
  private readonly fine = new Map<string, number>();
  private readonly segmented: boolean;
  /** Tokenizer calls, and the characters they were given. */
  misses = 0;
  tokenizedChars = 0;

  constructor(
    readonly tokenizer: Tokenizer,
    private readonly clock: Clock = NO_CLOCK,
  ) {
    this.segmented = SPLITS_AFTER_LETTERS.has(tokenizer.name);
  }

  count = (text: string): number => this.clock.run('tokenize', () => this.lookup(text));

  /** Forget everything counted so far (memory stays bounded by what one scope counts). */
  clear(): void {
    this.recent.clear();
    this.coarse.clear();
    this.fine.clear();
  }

  private lookup(text: string): number {
    // An estimate is cheaper to compute than to look up.
    if (this.tokenizer.estimate) return this.tokenizer.count(text);
    const known = this.recent.get(text.length);
    if (known !== undefined && known.text === text) return known.n;
    const n = this.segmented ? this.countCoarse(text) : this.tokenize(text);
    // Whole texts recur soon after they are first counted (the row, its baseline, the planner's
    // first question): a few recent ones are enough, and holding every chunk would hold megabytes.
    this.recent.delete(text.length);
    if (this.recent.size >= RECENT_TEXTS) this.recent.delete(this.recent.keys().next().value!);
    this.recent.set(text.length, { text, n });
    return n;
  }

  private tokenize(text: string): number {
    this.misses++;
    this.tokenizedChars += text.length;
    return this.tokenizer.count(text);
  }

  private countCoarse(text: string): number {
    let total = 0;
    let start = 0;
    const end = text.length;
    let p = COARSE_MIN;
    while (p < end) {
      if (safeSplit(text, p)) {
        let h = 0;
        for (let i = p - WINDOW; i < p; i++) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
        if ((h >>> 7) % COARSE_ONE_IN === 0) {
          total += this.coarseSegment(text.slice(start, p));
          start = p;
          p += COARSE_MIN;
          continue;
        }
      }
      p++;
    }
    return total + this.coarseSegment(start === 0 ? text : text.slice(start));
  }

  private coarseSegment(piece: string): number {
    let n = this.coarse.get(piece);
    if (n === undefined) {
      n = this.countFine(piece);
      this.coarse.set(own(piece), n);
    }
    return n;
  }

  private countFine(piece: string): number {
    let total = 0;
    let start = 0;
    const end = piece.length;
    for (let p = 1; p < end; p++) {
      if (!safeSplit(piece, p)) continue;
      total += this.fineSegment(piece.slice(start, p));
      start = p;
    }
    return total + this.fineSegment(start === 0 ? piece : piece.slice(start));
  }

  private fineSegment(piece: string): number {
    let n = this.fine.get(piece);
    if (n === undefined) {
      // The tokenizer's own caches keep slices of what it is given: give it a copy, not a view of a chunk.
      const copy = own(piece);
      n = this.tokenize(copy);
      this.fine.set(copy, n);
    }
    return n;
  }
}

/**
 * A copy of a slice that does not keep the text it was cut from alive (V8 makes a slice of 13 or
 * more characters a view of its parent): concatenation flattens into a new string.
 */
function own(piece: string): string {
  return piece.length < 13 ? piece : (' ' + piece).slice(1);
}

/** Whether the count of `text` splits at p: text[p-1] an ASCII letter, text[p] ASCII but neither a letter nor an apostrophe. */
export function safeSplit(text: string, p: number): boolean {
  const c = text.charCodeAt(p);
  return c < 128 && c !== 39 && !isAsciiLetter(c) && isAsciiLetter(text.charCodeAt(p - 1));
}

function isAsciiLetter(c: number): boolean {
  // Setting bit 5 maps A-Z onto a-z and nothing else onto a-z.
  return ((c | 32) - 97) >>> 0 < 26;
}
