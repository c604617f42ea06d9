import { mergeCountByBuckets, mergeCountByScan } from './bpe-merge.js';
import { ByteRanks, toByteString, type RankLookup, type RawRanks } from './byte-ranks.js';

/**
 * Pieces at least this many bytes long merge with the bucket queue, shorter ones with the scan.
 * Measured (npm run bench, tokenize section, CPU time), scan time over queue time: runs of one
 * letter 1.3 at 128 bytes, 1.5 at 192, 4 at 1024; random CJK 1.1, 1.3, 4; random lowercase letters
 * (many distinct ranks, the queue's worst case) 0.5-0.9 at 128, 0.8 at 192, 1.2 at 1024. At 192 neither
 * side loses more than about 1.5x. Real text hardly reaches it: of the corpus's 3.9 million pieces,
 * 6 are 128 bytes or longer.
 */
export const BUCKETS_FROM_BYTES = 192;

/** Merged counts of recent pieces; real text repeats its words. Bounded, and long pieces are not kept. */
const CACHE_ENTRIES = 100_000;
const CACHE_MAX_PIECE = 256;

/**
 * Counts tokens exactly as gpt-tokenizer's countTokens(text, { disallowedSpecial: new Set() }) does:
 * the same pre-tokenizing regex over the whole text (special-token text is ordinary text), a whole
 * piece that is itself a token counts 1, any other piece is byte-pair merged. Only the merge differs:
 * near-linear on long pieces instead of quadratic.
 */
export class BpeCounter {
  private readonly ranks: RankLookup;
  private readonly split: RegExp;
  private cache = new Map<string, number>();

  constructor(
    raw: RawRanks | RankLookup,
    split: RegExp,
    readonly bucketsFromBytes = BUCKETS_FROM_BYTES,
  ) {
    this.ranks = Array.isArray(raw) ? new ByteRanks(raw as RawRanks) : (raw as RankLookup);
    // Own copy: exec() moves lastIndex, and the library's regex object is shared with its encoder.
    this.split = new RegExp(split.source, split.flags.includes('g') ? split.flags : `${split.flags}g`);
  }

  count(text: string): number {
    const split = this.split;
    split.lastIndex = 0;
    let n = 0;
    for (let m = split.exec(text); m !== null; m = split.exec(text)) {
      const piece = m[0];
      // None of the regexes matches empty text; stepping past one only guards the loop.
      if (piece.length > 0) n += this.countPiece(piece);
      else split.lastIndex++;
    }
    return n;
  }

  countPiece(piece: string): number {
    const bytes = toByteString(piece);
    if (this.ranks.ofPiece(piece, bytes) !== undefined) return 1;
    const cached = this.cache.get(piece);
    if (cached !== undefined) return cached;
    const ranks = this.ranks;
    const rank = (start: number, end: number) => ranks.ofRange(bytes, start, end);
    const n = bytes.length < this.bucketsFromBytes ? mergeCountByScan(bytes.length, rank) : mergeCountByBuckets(bytes.length, rank);
    if (piece.length <= CACHE_MAX_PIECE) {
      if (this.cache.size >= CACHE_ENTRIES) this.cache = new Map();
      this.cache.set(piece, n);
    }
    return n;
  }
}
