import { gcf } from '../formats/gcf.js';
import { DataError } from '../errors.js';
import { isJsonObject, type JsonObject } from '../json/types.js';
import { sectionName } from './gcf-row-writer.js';

/**
 * The rows of a GCF stream written by GcfRowWriter, in order: its sections (`rows`, `rows_2`, ...)
 * decoded by the reference decoder and concatenated; none for an empty stream (`## [0]`).
 */
export function rowsFromGcfStream(text: string): JsonObject[] {
  const doc = gcf.decode(text);
  // A stream of no rows is an empty root array (GcfRowWriter.close).
  if (Array.isArray(doc) && doc.length === 0) return [];
  if (!isJsonObject(doc)) throw new DataError('not a devboy GCF row stream (expected sections rows, rows_2, ...)');
  const names = Object.keys(doc);
  const rows: JsonObject[] = [];
  names.forEach((name, i) => {
    const section = doc[name];
    if (name !== sectionName(i) || !Array.isArray(section))
      throw new DataError(`not a devboy GCF row stream: section ${JSON.stringify(name)} where ${sectionName(i)} was expected`);
    for (const row of section) {
      if (!isJsonObject(row)) throw new DataError(`not a devboy GCF row stream: ${name} holds a non-object`);
      rows.push(row);
    }
  });
  return rows;
}
