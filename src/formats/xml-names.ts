/**
 * Object keys as XML element and attribute names, and back, the way .NET's XmlConvert.EncodeLocalName
 * and DecodeName (and SQL/XML's name mapping) do it: a character a name cannot hold at its place is
 * written `_xHHHH_` (`_xHHHHHHHH_` beyond the BMP) with its code point in hex, so GitHub's `+1`
 * becomes `_x002B_1`; an underscore that would read as the start of such an escape is itself
 * escaped (`_x0041_` becomes `_x005F_x0041_`), so every key has one name and every name one key.
 *
 * Escaped beyond what XML 1.0 requires, so that every reader takes the name as it is: `:` (a
 * namespace-aware reader splits a name there), every character beyond the BMP (fast-xml-parser's
 * validator checks names one UTF-16 unit at a time and rejects a name holding `😀`), and the two
 * name characters JavaScript's `\s` matches, U+1680 and U+FEFF (fast-xml-parser ends a name there).
 *
 * The empty key, which no name can be, is written `_x_` (devboy's addition: EncodeName leaves it
 * empty, which is no name); a key `_x_` is then escaped like any other that would read as an escape.
 */

/** The name written for the empty key. */
const EMPTY_KEY_NAME = '_x_';

export function encodeXmlName(key: string): string {
  if (key === '') return EMPTY_KEY_NAME;
  let out = '';
  for (let i = 0; i < key.length;) {
    const c = key.codePointAt(i)!;
    const width = c > 0xffff ? 2 : 1;
    if (c === UNDERSCORE && escapeAt(key, i)) out += '_x005F_';
    else if (i === 0 ? isNameStart(c) : isNameStart(c) || isNameRest(c)) out += key.slice(i, i + width);
    else
      out += `_x${c
        .toString(16)
        .toUpperCase()
        .padStart(c > 0xffff ? 8 : 4, '0')}_`;
    i += width;
  }
  return out;
}

export function decodeXmlName(name: string): string {
  if (name === EMPTY_KEY_NAME) return '';
  if (!name.includes('_x')) return name;
  let out = '';
  for (let i = 0; i < name.length;) {
    const escape = escapeAt(name, i);
    if (escape) {
      out += String.fromCodePoint(escape.code);
      i += escape.length;
    } else {
      out += name[i];
      i++;
    }
  }
  return out;
}

const UNDERSCORE = 0x5f;
const HEX = /^[0-9A-Fa-f]+$/;

/** The escape `_xHHHH_` or `_xHHHHHHHH_` at `i`, if one starts there (a whole `_x_` stands for the empty key). */
function escapeAt(s: string, i: number): { code: number; length: number } | null {
  if (s.charCodeAt(i) !== UNDERSCORE || s[i + 1] !== 'x') return null;
  if (s === EMPTY_KEY_NAME) return { code: UNDERSCORE, length: 1 };
  for (const digits of [8, 4]) {
    const hex = s.slice(i + 2, i + 2 + digits);
    if (hex.length === digits && HEX.test(hex) && s.charCodeAt(i + 2 + digits) === UNDERSCORE) {
      const code = parseInt(hex, 16);
      if (code <= 0x10ffff) return { code, length: digits + 3 };
    }
  }
  return null;
}

/** XML 1.0 NameStartChar, BMP only (see above), without `:`: the ranges of the production, in order. */
const NAME_START_RANGES: readonly (readonly [number, number])[] = [
  [0x41, 0x5a],
  [UNDERSCORE, UNDERSCORE],
  [0x61, 0x7a],
  [0xc0, 0xd6],
  [0xd8, 0xf6],
  [0xf8, 0x2ff],
  [0x370, 0x37d],
  [0x37f, 0x1fff],
  [0x200c, 0x200d],
  [0x2070, 0x218f],
  [0x2c00, 0x2fef],
  [0x3001, 0xd7ff],
  [0xf900, 0xfdcf],
  [0xfdf0, 0xfffd],
];

/** XML name characters that JavaScript's `\s` matches, so a reader built on regular expressions splits names at them. */
const SPACE_TO_JAVASCRIPT = new Set([0x1680, 0xfeff]);

function isNameStart(c: number): boolean {
  return !SPACE_TO_JAVASCRIPT.has(c) && NAME_START_RANGES.some(([lo, hi]) => c >= lo && c <= hi);
}

/** The rest of XML 1.0 NameChar: what a name may hold after its first character. */
function isNameRest(c: number): boolean {
  return c === 0x2d || c === 0x2e || (c >= 0x30 && c <= 0x39) || c === 0xb7 || (c >= 0x300 && c <= 0x36f) || (c >= 0x203f && c <= 0x2040);
}
