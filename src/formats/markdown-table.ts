import { markdownTable } from 'markdown-table';
import { DataError } from '../errors.js';
import { assertEncodableDepth, loneSurrogateError } from '../json/encode-guard.js';
import { isWellFormed } from '../json/surrogates.js';
import type { JsonValue } from '../json/types.js';
import { itemsOf, tableOf } from './cells.js';
import { FORMAT_INFO } from './info.js';
import type { Format } from './types.js';

/**
 * A GitHub-flavoured Markdown table, written by markdown-table (one space of padding, delimiter
 * row not aligned: what a generator writes, not a hand-aligned table) and read back by the small
 * reader below. A cell's `|` is written `\|` and a line break `<br>`, as GFM tables need (cells.ts
 * says what a cell holds). Read back as GFM reads it: `\|` is `|`, `<br>` a line break, and a
 * cell's leading and trailing spaces are padding, not content.
 */
export const markdownTableFormat: Format = {
  ...FORMAT_INFO['markdown-table'],
  encode: (value: JsonValue) => {
    assertEncodableDepth(value);
    const { columns, rows } = tableOf(value);
    if (columns.length === 0) return '';
    const text = markdownTable(
      [columns, ...rows].map((row) => row.map(escapeCell)),
      { alignDelimiters: false },
    );
    if (!isWellFormed(text)) throw loneSurrogateError('markdown-table', value) ?? new DataError('Markdown output is not valid UTF-8 text');
    return text;
  },
  decode: (text: string) => {
    const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
    while (lines.length > 0 && lines[lines.length - 1]!.trim() === '') lines.pop();
    if (lines.length === 0) return [];
    if (lines.length < 2 || !DELIMITER_ROW.test(lines[1]!))
      throw new DataError('invalid Markdown table: the second line must be the delimiter row (| - | - |)', { line: 2, col: 1 });
    const columns = splitRow(lines[0]!);
    const delimiters = splitRow(lines[1]!).length;
    if (delimiters !== columns.length)
      throw new DataError(`invalid Markdown table: the delimiter row has ${delimiters} cells, the header ${columns.length}`, {
        line: 2,
        col: 1,
      });
    const rows = lines.slice(2).map(splitRow);
    return itemsOf('Markdown table', columns, rows, (r) => ({ line: r < 0 ? 1 : r + 3, col: 1 }));
  },
};

const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/;

export function escapeCell(text: string): string {
  return text.replace(/\|/g, '\\|').replace(/\r\n|\r|\n/g, '<br>');
}

/** The cells of one table line: split at every `|` not escaped, outer pipes dropped, each cell trimmed and unescaped. */
export function splitRow(line: string): string[] {
  let body = trimPadding(line);
  if (body.startsWith('|')) body = body.slice(1);
  if (body.endsWith('|') && !body.endsWith('\\|')) body = body.slice(0, -1);
  const cells: string[] = [];
  let start = 0;
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '|' && body[i - 1] !== '\\') {
      cells.push(body.slice(start, i));
      start = i + 1;
    }
  }
  cells.push(body.slice(start));
  return cells.map((c) => trimPadding(c).replace(/\\\|/g, '|').replace(/<br>/g, '\n'));
}

/** GFM trims a cell's spaces and tabs (not every Unicode space, as String.trim would). */
function trimPadding(text: string): string {
  return text.replace(/^[ \t]+|[ \t]+$/g, '');
}
