import { isUtf8 } from 'node:buffer';
import { DataError, lineColAt } from '../errors.js';

const strict = new TextDecoder('utf-8', { fatal: true });

/**
 * Bytes to text, refusing anything that is not UTF-8 instead of replacing it with U+FFFD: a
 * replacement would change the data before any check could see it. A leading byte-order mark is
 * dropped. The error names the first bad byte (offset from 0, as in a hex dump) and its line:col.
 */
export function decodeUtf8(bytes: Uint8Array, file?: string): string {
  // isUtf8 validates natively (the same rules as a fatal TextDecoder) and is faster than decoding twice.
  if (isUtf8(bytes)) {
    const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8');
    return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  }
  const bad = firstInvalid(bytes);
  // The bytes before the bad one are valid: decoding them gives the line and column it is at.
  const { line, col } = lineColAt(strict.decode(bytes.subarray(0, bad.offset)), Infinity);
  const shown = [...bytes.subarray(bad.offset, bad.end)].map((b) => `0x${b.toString(16).toUpperCase().padStart(2, '0')}`).join(' ');
  throw new DataError(`invalid UTF-8 at byte ${bad.offset} (${shown}): ${bad.why}`, { ...(file !== undefined ? { file } : {}), line, col });
}

interface Invalid {
  offset: number;
  /** End of the bytes worth showing: the sequence up to and including the byte that broke it. */
  end: number;
  why: string;
}

/** The first ill-formed sequence, by the rules isUtf8 and TextDecoder apply (RFC 3629: no overlongs, surrogates, or code points past U+10FFFF). */
function firstInvalid(bytes: Uint8Array): Invalid {
  const n = bytes.length;
  for (let i = 0; i < n;) {
    const b = bytes[i]!;
    if (b < 0x80) {
      i++;
      continue;
    }
    const lead = leadOf(b);
    if (!lead) return badLead(bytes, i);
    const bad = badContinuation(bytes, i, lead);
    if (bad) return bad;
    i += lead.need + 1;
  }
  // isUtf8 refused but no sequence is ill-formed: cannot happen; say so rather than guess a place.
  return { offset: n, end: n, why: 'rejected by the UTF-8 decoder' };
}

/** What a lead byte needs: how many continuation bytes, and the range its first one must fall in. */
interface Lead {
  need: number;
  lo: number;
  hi: number;
}

function leadOf(b: number): Lead | undefined {
  if (b >= 0xc2 && b <= 0xdf) return { need: 1, lo: 0x80, hi: 0xbf };
  if (b >= 0xe0 && b <= 0xef) return { need: 2, lo: b === 0xe0 ? 0xa0 : 0x80, hi: b === 0xed ? 0x9f : 0xbf };
  if (b >= 0xf0 && b <= 0xf4) return { need: 3, lo: b === 0xf0 ? 0x90 : 0x80, hi: b === 0xf4 ? 0x8f : 0xbf };
  return undefined;
}

/** A byte at `i` that cannot start a character (or a UTF-16 byte-order mark at the start). */
function badLead(bytes: Uint8Array, i: number): Invalid {
  const b = bytes[i]!;
  const utf16 = i === 0 && bytes.length >= 2 && ((b === 0xff && bytes[1] === 0xfe) || (b === 0xfe && bytes[1] === 0xff));
  if (utf16) return { offset: 0, end: 2, why: 'a UTF-16 byte-order mark; devboy reads UTF-8 only' };
  const why = b >= 0x80 && b <= 0xbf ? 'a continuation byte with no character to continue' : 'a byte UTF-8 never uses';
  return { offset: i, end: i + 1, why };
}

/** The character at `i` cut off, or a byte that does not continue it; undefined when it is whole. */
function badContinuation(bytes: Uint8Array, i: number, { need, lo, hi }: Lead): Invalid | undefined {
  const b = bytes[i]!;
  for (let k = 1; k <= need; k++) {
    if (i + k >= bytes.length) return { offset: i, end: bytes.length, why: 'a character cut off by the end of the input' };
    const c = bytes[i + k]!;
    const [min, max] = k === 1 ? [lo, hi] : [0x80, 0xbf];
    if (c < min || c > max) {
      let why = `0x${c.toString(16).toUpperCase().padStart(2, '0')} does not continue the character`;
      if (k === 1 && c >= 0x80 && c <= 0xbf) {
        why =
          b === 0xed
            ? 'an encoded UTF-16 surrogate, which UTF-8 forbids'
            : b === 0xf4
              ? 'a code point past U+10FFFF'
              : 'an overlong encoding';
      }
      return { offset: i, end: i + k + 1, why };
    }
  }
  return undefined;
}
