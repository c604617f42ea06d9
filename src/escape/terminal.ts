import stringWidth from 'string-width';
import { escapeInvisible, escapeOf, INVISIBLE } from './invisible.js';

export { escapeInvisible };

/**
 * Text from data (corpus file and folder names, recorded URLs and bodies, result files, session tool
 * names) as a terminal shows it: every character a terminal would act on or hide is written as an
 * escape, so an ESC sequence (clear screen, OSC 8 link, OSC 52 clipboard write), a carriage return
 * or a bidirectional override shows up as what it is instead of being obeyed. A backslash of the data
 * is shown as `\\`, so every escape reads back one way: the text `\u001b` and a real ESC differ.
 */

/**
 * Data for a terminal: backslashes doubled, then escaped as escapeInvisible does and, given
 * `maxColumns`, cut to that many columns with `…` at the end. The cut falls between whole characters
 * and whole escapes, so it never leaves half an escape (`\u00`, `\`) or half a surrogate pair.
 */
export function terminalText(text: string, maxColumns = Number.POSITIVE_INFINITY): string {
  const escaped = escapeInvisible(text.replace(/\\/g, '\\\\'));
  if (displayWidth(escaped) <= maxColumns) return escaped;
  const room = Math.max(0, maxColumns - 1);
  let out = '';
  let width = 0;
  for (const unit of units(text)) {
    const w = displayWidth(unit);
    if (width + w > room) break;
    out += unit;
    width += w;
  }
  return `${out}…`;
}

/** The text as the pieces a cut may not split: each escape whole, each other code point whole. */
function* units(text: string): Generator<string> {
  for (const c of text) {
    if (c === '\\') {
      yield '\\\\';
      continue;
    }
    // A lone surrogate is one code point to the iterator, and INVISIBLE matches it.
    INVISIBLE.lastIndex = 0;
    yield c.length === 1 && INVISIBLE.test(c) ? escapeOf(c) : c;
  }
}

/** Columns a text takes on a terminal (wide East Asian characters take two, combining marks none). */
export function displayWidth(text: string): number {
  return stringWidth(text);
}

/**
 * Terminal text (as terminalText wrote it) in the pieces a fold may not split: each escape whole
 * (`\u001b`, `\n`, `\\`), each other code point whole.
 */
export function shownUnits(text: string): string[] {
  return text.match(/\\(?:u[0-9a-f]{4}|[\\nrt])|[\s\S]/gu) ?? [];
}
