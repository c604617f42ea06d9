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
  private readonly kept = new Map<number, { text: string; n: number }[]>();
  private readonly coarse = new SegmentTable();
  private readonly fine = new SegmentTable();
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

  /**
   * count, and remember the text until clear(): for whole texts that other questions come back to
   * (the benchmark's encoded lists: the fit view asks for the provider JSON's count again).
   */
  keep = (text: string): number => {
    const n = this.count(text);
    const same = this.kept.get(text.length);
    if (same === undefined) this.kept.set(text.length, [{ text, n }]);
    else if (!same.some((k) => k.text === text)) same.push({ text, n });
    return n;
  };

  /** Forget everything counted so far (memory stays bounded by what one scope counts). */
  clear(): void {
    this.recent.clear();
    this.kept.clear();
    this.coarse.clear();
    this.fine.clear();
  }

  private lookup(text: string): number {
    // An estimate is cheaper to compute than to look up.
    if (this.tokenizer.estimate) return this.tokenizer.count(text);
    const known = this.recent.get(text.length);
    if (known !== undefined && known.text === text) return known.n;
    const kept = this.kept.get(text.length)?.find((k) => k.text === text);
    if (kept !== undefined) return kept.n;
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
    let startWindow = 0;
    const end = text.length;
    let p = COARSE_MIN;
    let prevLetter = isAsciiLetter(text.charCodeAt(p - 1));
    while (p < end) {
      const c = text.charCodeAt(p);
      const letter = isAsciiLetter(c);
      // safeSplit(text, p), with the previous character's test carried over.
      if (prevLetter && !letter && c < 128 && c !== 39) {
        let w = 0;
        for (let i = p - WINDOW; i < p; i++) w = (Math.imul(w, 31) + text.charCodeAt(i)) | 0;
        if ((w >>> 7) % COARSE_ONE_IN === 0) {
          total += this.coarseSegment(text, start, p, startWindow ^ w);
          start = p;
          startWindow = Math.imul(w, 0x9e3779b1);
          p += COARSE_MIN;
          prevLetter = isAsciiLetter(text.charCodeAt(p - 1));
          continue;
        }
      }
      prevLetter = letter;
      p++;
    }
    return start < end ? total + this.coarseSegment(text, start, end, startWindow) : total;
  }

  /** `key`: from the window hashes at both ends of the segment, which the scan computed already. */
  private coarseSegment(text: string, start: number, end: number, key: number): number {
    const hash = sampled(text, start, end - start, key);
    const known = this.coarse.get(text, start, end, hash);
    if (known !== undefined) return known;
    const piece = own(start === 0 && end === text.length ? text : text.slice(start, end));
    const n = this.countFine(piece);
    this.coarse.set(piece, hash, n);
    return n;
  }

  private countFine(piece: string): number {
    let total = 0;
    let start = 0;
    const end = piece.length;
    let h = 0;
    let prevLetter = false;
    for (let p = 0; p < end; p++) {
      const c = piece.charCodeAt(p);
      const letter = isAsciiLetter(c);
      if (prevLetter && !letter && c < 128 && c !== 39) {
        total += this.fineSegment(piece, start, p, h);
        start = p;
        h = 0;
      }
      h = (Math.imul(h, 31) + c) | 0;
      prevLetter = letter;
    }
    return total + this.fineSegment(piece, start, end, h);
  }

  private fineSegment(piece: string, start: number, end: number, hash: number): number {
    const known = this.fine.get(piece, start, end, hash);
    if (known !== undefined) return known;
    // The tokenizer's own caches keep slices of what it is given: give it a copy, not a view of a chunk.
    const copy = own(start === 0 && end === piece.length ? piece : piece.slice(start, end));
    const n = this.tokenize(copy);
    this.fine.set(copy, hash, n);
    return n;
  }
}

/**
 * Counted segments by a hash that the scan which cut them made as it went (Map<string> would hash
 * each segment again, which costs more than the scan); a hit is confirmed by comparing the text.
 */
class SegmentTable {
  private readonly byHash = new Map<number, Segment>();

  get(text: string, start: number, end: number, hash: number): number | undefined {
    const len = end - start;
    for (let e = this.byHash.get(hash); e !== undefined; e = e.next) {
      if (e.text.length === len && same(e.text, text, start, len)) return e.n;
    }
    return undefined;
  }

  set(text: string, hash: number, n: number): void {
    this.byHash.set(hash, { text, n, next: this.byHash.get(hash) });
  }

  clear(): void {
    this.byHash.clear();
  }
}

interface Segment {
  text: string;
  n: number;
  next: Segment | undefined;
}

/** Whether text[start, start + len) is a (of length len): short ones compared here, long ones by the engine. */
function same(a: string, text: string, start: number, len: number): boolean {
  if (len > 16) return a === text.slice(start, start + len);
  for (let i = 0; i < len; i++) if (a.charCodeAt(i) !== text.charCodeAt(start + i)) return false;
  return true;
}

/**
 * A coarse segment's hash: its length, the window hashes at its ends (computed by the scan already)
 * and a few characters sampled across it.
 */
const SAMPLES = 8;

function sampled(text: string, start: number, len: number, key: number): number {
  let h = (key ^ Math.imul(len, 0x85ebca6b)) | 0;
  const step = Math.max(1, Math.floor(len / SAMPLES));
  for (let i = start + (step >> 1); i < start + len; i += step) h = (Math.imul(h, 31) + text.charCodeAt(i)) | 0;
  return h;
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
