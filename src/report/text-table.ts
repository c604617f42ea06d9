import { displayWidth } from '../escape/terminal.js';
import { foldLine } from '../text/fold.js';

/**
 * Aligned tables and paragraphs for the terminal, fitted to its width: columns two spaces apart under
 * a rule, no box. A table wider than `width` first wraps its cells at spaces (widest column first,
 * never inside a word); if even its longest words do not fit side by side, its columns are split
 * into tables of their own, each repeating the key columns (the first, unless the table says more). Cells are terminal text already
 * (src/escape/terminal.ts); bold (the only ANSI the reports use) is kept on every wrapped line.
 */

export interface TextTable {
  head: string[];
  /** A row of cells, or a line of its own across the table (a dataset's title above its rows), folded to the width. */
  rows: (string[] | { line: string })[];
  /**
   * Leading columns that say what a row is (default 1: the first): when the columns are split into
   * tables of their own, each table repeats these, so none has rows without their labels.
   */
  keyColumns?: number;
}

const GAP = 2;
// eslint-disable-next-line no-control-regex -- the one ANSI sequence the reports write
const BOLD = /^\u001b\[1m([\s\S]*)\u001b\[22m$/;

export function renderTable(table: TextTable, width = Number.POSITIVE_INFINITY): string {
  const columns = table.head.length;
  const cellRows = table.rows.filter((r): r is string[] => Array.isArray(r));
  const all = [table.head, ...cellRows];
  const least = range(columns).map((c) => Math.max(1, ...all.map((r) => longestWord(r[c] ?? ''))));
  if (columns > 1 && total(least) > width) return splitColumns(table, least, width);
  const widths = range(columns).map((c) => Math.max(...all.map((r) => displayWidth(r[c] ?? ''))));
  while (total(widths) > width) {
    // The column with the most room above its longest word gives up a column.
    let pick = -1;
    for (let c = 0; c < columns; c++) if (widths[c]! > least[c]! && (pick < 0 || widths[c]! > widths[pick]!)) pick = c;
    if (pick < 0) break;
    widths[pick]!--;
  }
  const lines: string[] = [];
  const emit = (cells: string[]) => {
    const wrapped = range(columns).map((c) => wrapCell(cells[c] ?? '', widths[c]!));
    const height = Math.max(...wrapped.map((w) => w.length));
    for (let i = 0; i < height; i++)
      lines.push(
        range(columns)
          .map((c) => pad(wrapped[c]![i] ?? '', widths[c]!))
          .join(' '.repeat(GAP))
          .trimEnd(),
      );
  };
  emit(table.head);
  lines.push(widths.map((w) => '─'.repeat(w)).join(' '.repeat(GAP)));
  for (const r of table.rows) {
    if (Array.isArray(r)) emit(r);
    else lines.push(...foldLine(r.line, Math.max(width, total(widths)), '    '));
  }
  return lines.join('\n');
}

/** Columns into tables of their own, each with the key columns, each as wide as `width` allows. */
function splitColumns(table: TextTable, least: number[], width: number): string {
  const keys = range(Math.min(Math.max(1, table.keyColumns ?? 1), table.head.length - 1));
  const groups: number[][] = [];
  let current: number[] = [];
  for (let c = keys.length; c < table.head.length; c++) {
    const trial = [...keys, ...current, c];
    if (current.length > 0 && total(trial.map((i) => least[i]!)) > width) {
      groups.push(current);
      current = [c];
    } else current.push(c);
  }
  groups.push(current);
  const pick = (r: string[], cols: number[]) => [...keys, ...cols].map((c) => r[c] ?? '');
  return groups
    .map((cols) =>
      renderTable(
        {
          head: pick(table.head, cols),
          rows: table.rows.map((r) => (Array.isArray(r) ? pick(r, cols) : r)),
          keyColumns: keys.length,
        },
        Math.max(width, total([...keys, ...cols].map((i) => least[i]!))),
      ),
    )
    .join('\n\n');
}

/**
 * A paragraph wrapped at spaces to `width` columns, continuation lines indented by `indent`; a word
 * longer than a line stays whole.
 */
export function wrapText(text: string, width: number, indent = '  '): string[] {
  if (displayWidth(text) <= width) return [text];
  const lead = /^ */.exec(text)![0];
  const words = text.slice(lead.length).split(' ');
  const lines: string[] = [];
  let line = lead;
  for (const word of words) {
    const prefix = lines.length === 0 ? lead : indent;
    if (line !== prefix && displayWidth(`${line} ${word}`) > width) {
      lines.push(line);
      line = `${indent}${word}`;
    } else line = line === prefix ? `${line}${word}` : `${line} ${word}`;
  }
  lines.push(line);
  return lines;
}

function wrapCell(cell: string, width: number): string[] {
  const bold = BOLD.exec(cell);
  const plain = bold ? bold[1]! : cell;
  const lines = displayWidth(plain) <= width ? [plain] : wrapText(plain, width, '');
  return bold ? lines.map((l) => `\u001b[1m${l}\u001b[22m`) : lines;
}

function longestWord(cell: string): number {
  const plain = BOLD.exec(cell)?.[1] ?? cell;
  return Math.max(0, ...plain.split(' ').map(displayWidth));
}

function pad(text: string, width: number): string {
  return text + ' '.repeat(Math.max(0, width - displayWidth(text)));
}

function total(widths: number[]): number {
  return widths.reduce((a, b) => a + b, 0) + GAP * Math.max(0, widths.length - 1);
}

function range(n: number): number[] {
  return Array.from({ length: n }, (_, i) => i);
}
