/** gpt-tokenizer's rank table: the index is the rank, the value the token as text or, when not valid UTF-8, as bytes. */
export type RawRanks = readonly (string | readonly number[])[];

const NON_ASCII = /[\u0080-\uffff]/; // any UTF-16 code unit above ASCII

/**
 * Byte strings are "binary" strings here: one char per UTF-8 byte (latin1), so slicing, hashing and
 * comparing them is plain string work and an ASCII text is its own byte string.
 */
export function toByteString(text: string): string {
  return NON_ASCII.test(text) ? Buffer.from(text, 'utf8').toString('latin1') : text;
}

/** What a BPE merge asks of a vocabulary: the rank of a whole piece (its text), and of a byte range of it. */
export interface RankLookup {
  ofPiece(piece: string): number | undefined;
  ofRange(bytes: string, start: number, end: number): number | undefined;
}

/**
 * Plain tiktoken ranks (byte string to rank, no quirks): what tiktoken, js-tiktoken and Mistral's
 * tekken do with a rank table.
 */
export class PlainRanks implements RankLookup {
  constructor(private readonly byBytes: ReadonlyMap<string, number>) {}

  ofPiece(piece: string): number | undefined {
    return this.byBytes.get(toByteString(piece));
  }

  ofRange(bytes: string, start: number, end: number): number | undefined {
    return this.byBytes.get(bytes.slice(start, end));
  }
}

/**
 * Rank lookups that answer exactly as gpt-tokenizer 4.0.0's BytePairEncodingCore does, so merges
 * built on them reproduce its counts. Its lookup of a whole piece is a Map lookup of the piece's text
 * among the text entries. Its lookup of a byte range is: valid UTF-8 (its own tryConvertToString) →
 * decode and look the text up among the text entries; otherwise → look the bytes up among the byte
 * entries. Two consequences are reproduced on purpose:
 *  - byte entries that are valid UTF-8 (the BOM-prefixed tokens) are never found, since the text
 *    lookup misses them;
 *  - TextDecoder strips a leading BOM, so a valid range starting EF BB BF gets the rank of the rest.
 *
 * Every process that counts builds this, so it holds what the library holds and no byte string of a
 * text entry: one Map of the text entries as they are, one of the byte entries that are not valid
 * UTF-8. An ASCII range is its own text; a range with a byte above 7F is decoded here, on the
 * library's own rules (decodeRange). Byte strings of all entries in one Map took about three times as
 * long to build (o200k_base), and few lookups are of non-ASCII ranges: only merges of pieces that
 * are neither cached nor whole tokens make any.
 */
export class ByteRanks implements RankLookup {
  private readonly byText = new Map<string, number>();
  private readonly byInvalidBytes = new Map<string, number>();

  constructor(raw: RawRanks) {
    const byText = this.byText;
    // Entry by entry, later ranks replacing earlier ones, as the library's own forEach does.
    for (let rank = 0; rank < raw.length; rank++) {
      const value = raw[rank];
      if (typeof value === 'string') byText.set(value, rank);
      else if (value !== undefined) {
        const bytes = String.fromCharCode(...value);
        if (decodeRange(bytes, 0, bytes.length) === undefined) this.byInvalidBytes.set(bytes, rank);
      }
    }
  }

  /** The rank gpt-tokenizer's countTokens gives a whole pre-tokenized piece before merging, or undefined. */
  ofPiece(piece: string): number | undefined {
    return this.byText.get(piece);
  }

  /** The rank of bytes[start, end) as the library's merge sees it, or undefined. */
  ofRange(bytes: string, start: number, end: number): number | undefined {
    for (let i = start; i < end; i++) if (bytes.charCodeAt(i) >= 0x80) return this.ofWideRange(bytes, start, end);
    return this.byText.get(bytes.slice(start, end));
  }

  private ofWideRange(bytes: string, start: number, end: number): number | undefined {
    const text = decodeRange(bytes, start, end);
    if (text === undefined) return this.byInvalidBytes.get(bytes.slice(start, end));
    if (text.charCodeAt(0) !== 0xfeff) return this.byText.get(text);
    // TextDecoder's BOM stripping: the rest is looked up, and no token is empty.
    return text.length === 1 ? undefined : this.byText.get(text.slice(1));
  }
}

/**
 * The text of the byte string's range [start, end) when it is valid UTF-8 by gpt-tokenizer 4.0.0's
 * own test (isValidUTF8 in its utfUtil, which this follows rule for rule: no overlong forms, no
 * surrogates, nothing above U+10FFFF), else undefined. Decoded here rather than by a Buffer per
 * lookup, since the ranges are a few bytes long.
 */
function decodeRange(bytes: string, start: number, end: number): string | undefined {
  let text = '';
  for (let i = start; i < end;) {
    const b = bytes.charCodeAt(i);
    let size: number;
    let cp: number;
    if (b <= 0x7f) {
      text += String.fromCharCode(b);
      i++;
      continue;
    } else if ((b & 0xe0) === 0xc0) {
      if (b <= 0xc1) return undefined;
      size = 2;
      cp = b & 0x1f;
    } else if ((b & 0xf0) === 0xe0) {
      size = 3;
      cp = b & 0x0f;
    } else if ((b & 0xf8) === 0xf0) {
      if (b > 0xf4) return undefined;
      size = 4;
      cp = b & 0x07;
    } else return undefined;
    if (i + size > end) return undefined;
    for (let j = 1; j < size; j++) {
      const c = bytes.charCodeAt(i + j);
      if ((c & 0xc0) !== 0x80) return undefined;
      cp = (cp << 6) | (c & 0x3f);
    }
    if ((size === 3 && cp < 0x800) || (size === 4 && cp < 0x10000)) return undefined;
    if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff) return undefined;
    text += String.fromCodePoint(cp);
    i += size;
  }
  return text;
}
