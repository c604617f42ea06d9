import { tryConvertToString } from 'gpt-tokenizer/utfUtil';

/** gpt-tokenizer's rank table: the index is the rank, the value the token as text or, when not valid UTF-8, as bytes. */
export type RawRanks = readonly (string | readonly number[])[];

/** Paired surrogates form one code point under /u, so this finds only lone ones (which UTF-8 encodes as U+FFFD). */
const LONE_SURROGATE = /\p{Cs}/u;
const NON_ASCII = /[\u0080-\uffff]/; // any UTF-16 code unit above ASCII

/**
 * Byte strings are "binary" strings here: one char per UTF-8 byte (latin1), so slicing, hashing and
 * comparing them is plain string work and an ASCII text is its own byte string.
 */
export function toByteString(text: string): string {
  return NON_ASCII.test(text) ? Buffer.from(text, 'utf8').toString('latin1') : text;
}

/** What a BPE merge asks of a vocabulary: the rank of a whole piece, and of a byte range of it. */
export interface RankLookup {
  ofPiece(piece: string, bytes: string): number | undefined;
  ofRange(bytes: string, start: number, end: number): number | undefined;
}

/**
 * Plain tiktoken ranks (byte string to rank, no quirks): what tiktoken, js-tiktoken and Mistral's
 * tekken do with a rank table.
 */
export class PlainRanks implements RankLookup {
  constructor(private readonly byBytes: ReadonlyMap<string, number>) {}

  ofPiece(_piece: string, bytes: string): number | undefined {
    return this.byBytes.get(bytes);
  }

  ofRange(bytes: string, start: number, end: number): number | undefined {
    return this.byBytes.get(bytes.slice(start, end));
  }
}

/**
 * Rank lookups that answer exactly as gpt-tokenizer 4.0.0's BytePairEncodingCore does, so merges
 * built on them reproduce its counts. Its lookup of a byte range is: valid UTF-8 (its own
 * tryConvertToString) → decode and look the text up among the text entries; otherwise → look the
 * bytes up among the byte entries. Two consequences are reproduced on purpose:
 *  - byte entries that are valid UTF-8 (the BOM-prefixed tokens) are never found, since the text
 *    lookup misses them;
 *  - TextDecoder strips a leading BOM, so a valid range starting EF BB BF gets the rank of the rest.
 * Everything else is one Map lookup of the range's byte string.
 */
export class ByteRanks implements RankLookup {
  private readonly byBytes = new Map<string, number>();
  /** Text entries containing lone surrogates: reachable only by a whole piece equal to them (none in 4.0.0's tables). */
  private readonly illFormed = new Map<string, number>();

  constructor(raw: RawRanks) {
    // Every process that counts pays this (the CLI once per command, a proxy once): the non-ASCII
    // text entries are made byte strings by one UTF-8 conversion of them all, sliced by their UTF-8
    // lengths, which takes about two thirds of the CPU time of one Buffer per entry (o200k_base).
    // Well-formed text converts the same joined or alone, and only well-formed entries are joined.
    const wide: string[] = [];
    const wideRanks: number[] = [];
    raw.forEach((value, rank) => {
      if (typeof value === 'string') {
        if (!NON_ASCII.test(value)) this.byBytes.set(value, rank);
        else if (LONE_SURROGATE.test(value)) this.illFormed.set(value, rank);
        else {
          wide.push(value);
          wideRanks.push(rank);
        }
        return;
      }
      const bytes = Uint8Array.from(value);
      if (tryConvertToString(bytes) !== undefined) return; // looked up as text by the library, never found
      this.byBytes.set(Buffer.from(bytes).toString('latin1'), rank);
    });
    const joined = Buffer.from(wide.join(''), 'utf8').toString('latin1');
    let at = 0;
    wide.forEach((text, i) => {
      const end = at + Buffer.byteLength(text, 'utf8');
      this.byBytes.set(joined.slice(at, end), wideRanks[i]!);
      at = end;
    });
  }

  /**
   * The rank gpt-tokenizer's countTokens gives a whole pre-tokenized piece before merging (a Map
   * lookup of the piece's text among the text entries), or undefined.
   */
  ofPiece(piece: string, bytes: string): number | undefined {
    if (bytes === piece) return this.byBytes.get(piece); // ASCII: only text entries have ASCII byte strings
    if (LONE_SURROGATE.test(piece)) return this.illFormed.get(piece);
    // Valid UTF-8 never equals a byte entry the map holds (those are all invalid UTF-8).
    return this.byBytes.get(bytes);
  }

  /** The rank of bytes[start, end) as the library's merge sees it, or undefined. */
  ofRange(bytes: string, start: number, end: number): number | undefined {
    if (
      end - start >= 3 &&
      bytes.charCodeAt(start) === 0xef &&
      bytes.charCodeAt(start + 1) === 0xbb &&
      bytes.charCodeAt(start + 2) === 0xbf
    ) {
      return this.ofBomRange(bytes.slice(start, end));
    }
    return this.byBytes.get(bytes.slice(start, end));
  }

  private ofBomRange(range: string): number | undefined {
    const text = tryConvertToString(Buffer.from(range, 'latin1'));
    if (text === undefined) return this.byBytes.get(range);
    // The text is the range minus its BOM; look it up among text entries only (it is valid UTF-8).
    return text === '' ? undefined : this.byBytes.get(toByteString(text));
  }
}
