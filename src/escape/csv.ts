/**
 * CSV cells (`--export-csv`), RFC 4180, opened in spreadsheets: a text cell that starts with `=`,
 * `+`, `-`, `@`, a tab or a carriage return would be read as a formula and run (`=2+5+cmd|' -C
 * calc'!A0`), so it gets a leading `'` and quotes, as OWASP's CSV injection rule says. Numbers and
 * booleans are written as JSON writes them: a saving of -0.05 stays a number.
 */

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(v: string | number | boolean): string {
  if (typeof v !== 'string') return csvQuoted(String(v));
  if (FORMULA_START.test(v)) return `"'${v.replace(/"/g, '""')}"`;
  return csvQuoted(v);
}

/** Quoted when the text holds a comma, a quote, CR or LF; quotes doubled. */
function csvQuoted(text: string): string {
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** What a reader of the CSV gets back from a neutralised text cell: the text as the result has it. */
export function csvUnneutralised(cell: string): string {
  return /^'[=+\-@\t\r]/.test(cell) ? cell.slice(1) : cell;
}
