import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import { DataError } from '../errors.js';
import { assertEncodableDepth, loneSurrogateError } from '../json/encode-guard.js';
import { isWellFormed } from '../json/surrogates.js';
import type { JsonValue } from '../json/types.js';
import { itemsOf, tableOf } from './cells.js';
import { FORMAT_INFO } from './info.js';
import type { Format } from './types.js';

/**
 * CSV through csv-stringify and csv-parse: a header line of column names, then one line per item
 * (cells.ts says what a cell holds). csv-stringify quotes a cell only when it must (a comma, a
 * quote, a line break) and ends every line with LF. A baseline: what a CSV reader gets back is
 * text, so every number, boolean, null and nested value comes back changed (loss.ts counts them).
 */
export const csv: Format = {
  ...FORMAT_INFO.csv,
  encode: (value: JsonValue) => {
    assertEncodableDepth(value);
    const { columns, rows } = tableOf(value);
    if (columns.length === 0) return '';
    // A lone CR is a line end to csv-parse, which csv-stringify does not quote by itself.
    const text = stringify([columns, ...rows], { quoted_match: /\r/ });
    if (!isWellFormed(text)) throw loneSurrogateError('csv', value) ?? new DataError('CSV output is not valid UTF-8 text');
    return text;
  },
  decode: (text: string) => {
    let records: string[][];
    try {
      records = parse(text, { relax_column_count: false, skip_empty_lines: false }) as string[][];
    } catch (err) {
      const e = err as Error & { lines?: number; column?: number | string };
      throw new DataError(
        `invalid CSV: ${e.message.replace(/ (on|at) line \d+$/, '')}`,
        e.lines !== undefined ? { line: e.lines } : undefined,
        err,
      );
    }
    if (records.length === 0) return [];
    const [columns, ...rows] = records;
    // csv-parse has already refused rows whose cell count differs from the header's.
    return itemsOf('CSV', columns!, rows, () => ({ line: 1 }));
  },
};
