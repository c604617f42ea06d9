import { escapeInvisible } from './invisible.js';
import { terminalText } from './terminal.js';

/**
 * Data in Markdown (PR comments, job summaries): every string from a corpus, a result file or a
 * session goes into a code span, where GitHub makes no mention, issue link, autolink, image, HTML or
 * emphasis of it and no line break can start a heading or a paragraph. Only words devboy itself
 * defines (format, level, tokenizer names) print bare, and only while they are plain identifiers.
 */

/** Longest data text shown in a report; a longer one is cut with `…` (the JSON result has it whole). */
export const MD_MAX_DATA = 300;

/**
 * A code span holding `text` exactly as the reader should see it: invisible characters escaped, cut
 * at `max` columns, fenced with one backtick more than the longest run inside. Empty text is nothing.
 * In a table cell, mdRow escapes the pipes (GFM reads `\|` as a pipe inside a code span in a cell).
 */
export function mdCode(text: string, max = MD_MAX_DATA): string {
  const shown = terminalText(text, max);
  if (shown === '') return '';
  const longest = Math.max(0, ...[...shown.matchAll(/`+/g)].map((m) => m[0].length));
  const fence = '`'.repeat(longest + 1);
  // CommonMark strips one space from each end when both ends have one, and a backtick at either end
  // would join the fence: a space on each side keeps the content as it is.
  const pad = /^`|`$/.test(shown) || (/^ .*[^ ].* $/.test(shown) && shown.length > 1) ? ' ' : '';
  return `${fence}${pad}${shown}${pad}${fence}`;
}

/**
 * A name that is a plain identifier (`json-compact`, `o200k_base`, `minimal`) prints bare; anything
 * else, including what a result file calls a format, goes into a code span. Bare names cannot start
 * emphasis (no `_` or `-` at an end), links (no `.`, `@`, `:`, `#`), commit links (not all hex) or
 * numbered references (no trailing `-123`).
 */
export function mdName(text: string): string {
  const plain = text.length <= 40 && /^[a-z][a-z0-9]*(?:[-_][a-z0-9]+)*$/.test(text) && !/^[0-9a-f]{7,}$/.test(text) && !/-\d+$/.test(text);
  return plain ? text : mdCode(text);
}

/**
 * A table row. Cells are already made safe; a pipe inside one is escaped so it stays in its cell.
 * GFM (GitHub's and micromark's alike) pairs a backslash with the character after it before it
 * looks for pipes, so backslashes right before a pipe would pair with the escape's backslash and
 * free the pipe: each of them (data's backslashes come doubled, `\\`, from terminalText) is shown as
 * the escape `\u005c` instead.
 */
export function mdRow(cells: readonly string[]): string {
  const safe = (c: string) => c.replace(/\\+(?=\|)/g, (run) => run.replace(/\\\\|\\/g, '\\u005c')).replace(/\|/g, '\\|');
  return `| ${cells.map(safe).join(' | ')} |`;
}

/** Text inside HTML (a `<summary>`): markup characters as entities, invisible characters escaped, one line. */
export function htmlText(text: string, max = MD_MAX_DATA): string {
  return terminalText(text, max).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Invisible characters escaped, for text that is already a code block (a fence of its own). */
export { escapeInvisible };
