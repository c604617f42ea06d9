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
  private readonly sticky: RegExp;
  private cache = new Map<string, number>();

  constructor(
    raw: RawRanks | RankLookup,
    split: RegExp,
    readonly bucketsFromBytes = BUCKETS_FROM_BYTES,
  ) {
    this.ranks = Array.isArray(raw) ? new ByteRanks(raw as RawRanks) : (raw as RankLookup);
    // Own copies: test() and exec() move lastIndex, and the library's regex object is shared with its encoder.
    const flags = split.flags.replace(/[gy]/g, '');
    this.split = new RegExp(split.source, `${flags}g`);
    this.sticky = new RegExp(split.source, `${flags}y`);
  }

  count(text: string): number {
    // Pieces mostly follow one another with nothing between them, so each is first tried where the
    // last ended with the sticky regex's test(), which builds no match object; only where none starts
    // there does exec() search on, as it would have from there anyway.
    const sticky = this.sticky;
    const split = this.split;
    let n = 0;
    let at = 0;
    while (at < text.length) {
      sticky.lastIndex = at;
      let start = at;
      if (sticky.test(text)) at = sticky.lastIndex;
      else {
        split.lastIndex = at;
        const m = split.exec(text);
        if (m === null) break;
        start = m.index;
        at = split.lastIndex;
      }
      // None of the regexes matches empty text; stepping past one only guards the loop.
      if (at > start) n += this.countPiece(text.slice(start, at));
      else at++;
    }
    return n;
  }

  countPiece(piece: string): number {
    // The cache first: it holds whole-token pieces too, so a repeated piece costs one lookup and no
    // byte string (most pieces of real text repeat; measured on the corpus bodies).
    const cached = this.cache.get(piece);
    if (cached !== undefined) return cached;
    const n = this.ranks.ofPiece(piece) !== undefined ? 1 : this.merge(toByteString(piece));
    if (piece.length <= CACHE_MAX_PIECE) {
      if (this.cache.size >= CACHE_ENTRIES) this.cache = new Map();
      this.cache.set(piece, n);
    }
    return n;
  }

  private merge(bytes: string): number {
    const ranks = this.ranks;
    const rank = (start: number, end: number) => ranks.ofRange(bytes, start, end);
    return bytes.length < this.bucketsFromBytes ? mergeCountByScan(bytes.length, rank) : mergeCountByBuckets(bytes.length, rank);
  }
}
