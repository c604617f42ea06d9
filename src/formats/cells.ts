import { DataError, type Location } from '../errors.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json/types.js';

/**
 * What the text baselines (CSV, Markdown table, Markdown key-value list) share: a list of items as
 * rows of text cells, and back. The choices, documented in docs/formats/baselines.md:
 *
 * - One row per item; the columns are every key of every item, in the order first seen (an item
 *   that lacks a key has an empty cell). A value that is not a list is one row; an item that is
 *   not an object is a row with one column, `value`.
 * - A cell is text. A string is itself; a number is written as JSON writes it; a boolean as `true`
 *   or `false`; null as an empty cell; a nested object or list as its compact JSON (JSON in the cell,
 *   csv-stringify's own default for objects), not flattened into more columns.
 * - Read back, every cell is a string (nothing tells `42` the number from "42" the string, or JSON
 *   text from a string that looks like it), and an empty cell is no value: the key is absent.
 */

/** The column that holds an item that is not an object. */
export const VALUE_COLUMN = 'value';

export interface Table {
  columns: string[];
  /** One array of cell texts per item, aligned with `columns`. */
  rows: string[][];
}

/** The text of one value in a cell. */
export function cellText(value: JsonValue): string {
  if (value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

/** The items of a value as rows of cells. */
export function tableOf(value: JsonValue): Table {
  const items = Array.isArray(value) ? value : [value];
  const index = new Map<string, number>();
  const columns: string[] = [];
  const records = items.map((item) => (isJsonObject(item) ? item : { [VALUE_COLUMN]: item }));
  for (const record of records) {
    for (const key of Object.keys(record)) {
      if (!index.has(key)) {
        index.set(key, columns.length);
        columns.push(key);
      }
    }
  }
  const rows = records.map((record) => {
    const row = new Array<string>(columns.length).fill('');
    for (const key of Object.keys(record)) row[index.get(key)!] = cellText(record[key]!);
    return row;
  });
  return { columns, rows };
}

/**
 * Items from a header and rows of cell texts: an empty cell is an absent key. `where` locates a
 * row (its line) for errors; a repeated column name is refused, as JSON's reader refuses a
 * repeated key.
 */
export function itemsOf(
  format: string,
  columns: readonly string[],
  rows: readonly string[][],
  where: (row: number) => Location,
): JsonObject[] {
  const seen = new Set<string>();
  for (const name of columns) {
    if (seen.has(name)) throw new DataError(`invalid ${format}: column ${JSON.stringify(name)} appears twice in the header`, where(-1));
    seen.add(name);
  }
  return rows.map((row, r) => {
    if (row.length !== columns.length)
      throw new DataError(`invalid ${format}: row has ${row.length} cells, the header ${columns.length}`, where(r));
    const item: JsonObject = {};
    for (let c = 0; c < columns.length; c++) if (row[c] !== '') defineMember(item, columns[c]!, row[c]!);
    return item;
  });
}

/** defineProperty, so a "__proto__" column stays an own member instead of setting the prototype. */
export function defineMember(out: JsonObject, key: string, value: JsonValue): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}
