import type { LineType } from '../model/index.js';

/**
 * The line a review comment sits on, read from the diff hunk GitHub sends with it: the hunk ends at
 * the commented line. Old comments carry only a diff `position`, so this is their only line number.
 */
export function lastLineOfHunk(hunk: string): { line: number; line_type: LineType } | undefined {
  const lines = hunk.replace(/\r\n/g, '\n').replace(/\n+$/, '').split('\n');
  const header = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/.exec(lines[0] ?? '');
  if (!header) return undefined;
  let oldLine = Number(header[1]) - 1;
  let newLine = Number(header[2]) - 1;
  let last: { line: number; line_type: LineType } | undefined;
  for (const text of lines.slice(1)) {
    if (text.startsWith('\\')) continue; // "\ No newline at end of file"
    if (text.startsWith('-')) last = { line: ++oldLine, line_type: 'old' };
    else if (text.startsWith('+')) last = { line: ++newLine, line_type: 'new' };
    else {
      oldLine++;
      last = { line: ++newLine, line_type: 'context' };
    }
  }
  return last;
}
