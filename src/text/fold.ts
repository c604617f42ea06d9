import { displayWidth, shownUnits } from '../escape/terminal.js';

/**
 * Lines of terminal text folded to a width, for every report and summary devboy prints (the
 * benchmark, compare and stats reports, a session's, the proxy's, convert's): at spaces, and a word
 * longer than a line (a path, a request) broken where it reads best. Tables are report/text-table.ts.
 */

/**
 * Columns of a report that is not written to a terminal (a pipe, a file, a CI log): 100, the width
 * of a usual terminal window and of a CI log viewer. On a terminal, the terminal's own width.
 */
export const DEFAULT_WIDTH = 100;

/**
 * A line folded to `width` columns, for text that must fit however long its words are (a request's
 * URL, a file path): at spaces, and a word longer than a line is broken too, after
 * a `/`, `&`, `?`, `=` or `,` near the end of the room when there is one, else at the width; never
 * inside an escape or a character. Continuation lines start with `indent`.
 */
export function foldLine(text: string, width: number, indent = '  '): string[] {
  if (displayWidth(text) <= width) return [text];
  const lead = /^ */.exec(text)![0];
  const lines: string[] = [];
  let line = lead;
  let empty = true;
  const fresh = Math.max(1, width - displayWidth(indent));
  for (let word of text.slice(lead.length).split(' ')) {
    for (;;) {
      const room = width - displayWidth(line) - (empty ? 0 : 1);
      const w = displayWidth(word);
      if (w <= room) {
        line += empty ? word : ` ${word}`;
        empty = false;
        break;
      }
      // A word that fits a line of its own starts one; a longer one fills what is left of this line
      // first, unless too little is left to be worth it.
      if (!empty && (w <= fresh || room < Math.min(8, fresh))) {
        lines.push(line);
        line = indent;
        empty = true;
        continue;
      }
      const [head, tail] = breakWord(word, Math.max(1, room));
      lines.push(empty ? `${line}${head}` : `${line} ${head}`);
      line = indent;
      empty = true;
      word = tail;
      if (word === '') break;
    }
  }
  if (!empty || lines.length === 0) lines.push(line);
  return lines;
}

/** A word cut to `room` columns: after the last separator in its final two fifths, else at the width. */
function breakWord(word: string, room: number): [string, string] {
  const units = shownUnits(word);
  let used = 0;
  let fit = 0;
  let separator = 0;
  for (const [i, u] of units.entries()) {
    const w = displayWidth(u);
    if (used + w > room && fit > 0) break;
    used += w;
    fit = i + 1;
    if ('/&?=,'.includes(u) && used >= room * 0.6) separator = i + 1;
  }
  const at = separator > 0 && fit < units.length ? separator : fit;
  return [units.slice(0, at).join(''), units.slice(at).join('')];
}

/**
 * `label: a; b; c` on one line when it fits, else the label on a line of its own and one part a line
 * under it (a tokenizer and its implementation are never cut in two when they fit a line).
 */
export function listLines(label: string, parts: readonly string[], width: number): string[] {
  const line = `${label}: ${parts.join('; ')}`;
  if (displayWidth(line) <= width) return [line];
  return [`${label}:`, ...parts.flatMap((p, i) => foldLine(`  ${p}${i < parts.length - 1 ? ';' : ''}`, width, '    '))];
}
