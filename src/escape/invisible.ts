/**
 * Invisible characters as escapes: the one rule every sink starts from (terminal, Markdown, Mermaid),
 * kept free of dependencies because every error message uses it.
 */

/**
 * Characters a terminal would act on or hide rather than show (controls, line and paragraph
 * separators, bidirectional marks and overrides, byte-order marks) and lone surrogates (which cannot
 * be written as UTF-8), each matched as one UTF-16 unit.
 */
/* eslint-disable no-control-regex -- matching control characters is the point */
export const INVISIBLE =
  /[\u0000-\u001f\u007f-\u009f\u061c\u200b\u200c\u200e\u200f\u2028-\u202e\u2060-\u2064\u2066-\u2069\ufeff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
/* eslint-enable no-control-regex */
const SHORT: Record<string, string> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

export function escapeOf(c: string): string {
  return SHORT[c] ?? `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/**
 * Invisible characters as JSON-style escapes (`\n`, `\t`, `\u001b`): a NUL, an ANSI escape or a lone
 * surrogate in the input shows up as what it is. Everything else, wide and combining characters
 * included, is kept.
 */
export function escapeInvisible(text: string): string {
  return text.replace(INVISIBLE, escapeOf);
}
