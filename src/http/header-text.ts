/**
 * Text of any kind (a recorded URL or file name in Japanese, a folder named `ünïcødé_€`) in an HTTP
 * header, which carries only Latin-1 and no control characters: Node's writeHead throws on the
 * rest. Everything but printable ASCII, and `%` itself, is percent-encoded as UTF-8, so
 * fromHeaderText gives back exactly what toHeaderText was given (a lone surrogate, which UTF-8
 * cannot hold, comes back as U+FFFD).
 */
export function toHeaderText(text: string): string {
  return text.replace(/[^\x21-\x24\x26-\x7e]/gu, (char) => (isLoneSurrogate(char) ? '%EF%BF%BD' : encodeURIComponent(char)));
}

/** What toHeaderText was given; a value no devboy replay server wrote (bad escapes) is returned as it is. */
export function fromHeaderText(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

function isLoneSurrogate(char: string): boolean {
  return char.length === 1 && char.charCodeAt(0) >= 0xd800 && char.charCodeAt(0) <= 0xdfff;
}
