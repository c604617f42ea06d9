import { DataError, lineColAt } from '../errors.js';

/**
 * The characters XML 1.0 allows (its Char production: tab, line feed, carriage return, and from
 * U+0020 on, less the surrogates, U+FFFE and U+FFFF), nowhere else, not even as a character
 * reference. A document holding another is not well-formed, and strict writers refuse to write one
 * (lxml, .NET's XmlWriter).
 */

/** Written instead of a character XML cannot hold: the Unicode replacement character. */
export const REPLACEMENT = '\uFFFD';

// Lone surrogates are not listed: the encoder refuses them first, as every literal UTF-8 format does.
// eslint-disable-next-line no-control-regex -- control characters are what it finds
const NOT_XML_CHAR = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

/** `text` with every character XML 1.0 cannot hold replaced by U+FFFD. */
export function xmlChars(text: string): string {
  return text.replace(NOT_XML_CHAR, REPLACEMENT);
}

export function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    (code >= 0x10000 && code <= 0x10ffff)
  );
}

// A character reference, or a CDATA section or comment, whose text holds none.
const REFERENCE_OR_LITERAL = /<!\[CDATA\[[\s\S]*?\]\]>|<!--[\s\S]*?-->|&#(x[0-9A-Fa-f]+|[0-9]+);/g;

/**
 * Refuse a document holding a character XML 1.0 does not allow, raw or as a character reference,
 * at its line and column (fast-xml-parser's validator checks neither).
 */
export function assertXmlChars(text: string): void {
  NOT_XML_CHAR.lastIndex = 0;
  const raw = NOT_XML_CHAR.exec(text);
  if (raw)
    throw new DataError(`invalid XML: character ${codeName(raw[0].charCodeAt(0))} is not allowed in XML 1.0`, lineColAt(text, raw.index));
  for (const m of text.matchAll(REFERENCE_OR_LITERAL)) {
    const ref = m[1];
    if (ref === undefined) continue;
    const code = ref.startsWith('x') ? parseInt(ref.slice(1), 16) : parseInt(ref, 10);
    if (!isXmlChar(code))
      throw new DataError(
        `invalid XML: character reference ${m[0]} names ${code > 0x10ffff ? 'no character' : `${codeName(code)}, which XML 1.0 does not allow`}`,
        lineColAt(text, m.index),
      );
  }
}

function codeName(code: number): string {
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}
