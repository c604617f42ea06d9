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
    let need: number;
    let lo = 0x80;
    let hi = 0xbf;
    if (b >= 0xc2 && b <= 0xdf) need = 1;
    else if (b >= 0xe0 && b <= 0xef) {
      need = 2;
      if (b === 0xe0) lo = 0xa0;
      if (b === 0xed) hi = 0x9f;
    } else if (b >= 0xf0 && b <= 0xf4) {
      need = 3;
      if (b === 0xf0) lo = 0x90;
      if (b === 0xf4) hi = 0x8f;
    } else {
      const utf16 = i === 0 && n >= 2 && ((b === 0xff && bytes[1] === 0xfe) || (b === 0xfe && bytes[1] === 0xff));
      if (utf16) return { offset: 0, end: 2, why: 'a UTF-16 byte-order mark; devboy reads UTF-8 only' };
      const why = b >= 0x80 && b <= 0xbf ? 'a continuation byte with no character to continue' : 'a byte UTF-8 never uses';
      return { offset: i, end: i + 1, why };
    }
    for (let k = 1; k <= need; k++) {
      if (i + k >= n) return { offset: i, end: n, why: 'a character cut off by the end of the input' };
      const c = bytes[i + k]!;
      if (c < lo || c > hi) {
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
      lo = 0x80;
      hi = 0xbf;
    }
    i += need + 1;
  }
  // isUtf8 refused but no sequence is ill-formed: cannot happen; say so rather than guess a place.
  return { offset: n, end: n, why: 'rejected by the UTF-8 decoder' };
}
