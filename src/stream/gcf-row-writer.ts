import { GenericStreamEncoder } from '@blackwell-systems/gcf';
import { DataError, type Location } from '../errors.js';
import type { JsonObject } from '../json/types.js';

/** Section names, in order: `rows`, then `rows_2`, `rows_3`, ... each time the keys change. */
export const SECTION_BASE = 'rows';

export function sectionName(index: number): string {
  return index === 0 ? SECTION_BASE : `${SECTION_BASE}_${index + 1}`;
}

/**
 * Rows to GCF as they come, through @blackwell-systems/gcf's GenericStreamEncoder: a `[?]` section per
 * run of rows with the same keys in the same order, and the `##! summary counts=...` trailer at the end.
 *
 * A section declares its columns before its first row, so a row whose keys differ (added, missing or
 * reordered) starts a new section: every row then decodes to exactly its own keys, in its own order,
 * which buffered GCF does not promise (docs/formats/gcf.md). Limits of the streaming encoder, refused
 * up front with the row's location rather than written wrong: nested values (it writes flat scalar
 * cells only), keys containing '>' (read as flattened paths), and empty objects (an empty row is a
 * blank line, which decoders skip).
 */
export class GcfRowWriter {
  private readonly encoder: GenericStreamEncoder;
  private keys: string[] | null = null;
  private sections = 0;
  rows = 0;

  constructor(private readonly write: (text: string) => void) {
    this.encoder = new GenericStreamEncoder({ write });
  }

  get sectionCount(): number {
    return this.sections;
  }

  writeRow(row: JsonObject, where: Location): void {
    const keys = Object.keys(row);
    if (!this.keys || !sameKeys(this.keys, keys)) this.startSection(keys, where);
    const values = keys.map((k) => {
      const v = row[k]!;
      if (typeof v === 'object' && v !== null) {
        throw new DataError(
          `field ${JSON.stringify(k)} is ${Array.isArray(v) ? 'an array' : 'an object'}; GCF streaming writes flat rows of scalars only (convert without --stream to encode nested values)`,
          where,
        );
      }
      return v;
    });
    this.encoder.writeRow(values);
    this.rows++;
  }

  /**
   * Write the summary trailer: the stream is complete. With no rows the encoder writes nothing after
   * the header, which decodes to {}; an empty root array (`## [0]`, what encodeGeneric([]) writes)
   * makes it decode to [], the value of an empty input.
   */
  close(): void {
    this.encoder.close();
    if (this.rows === 0) this.write('## [0]\n');
  }

  private startSection(keys: string[], where: Location): void {
    if (keys.length === 0)
      throw new DataError('an empty object cannot be a GCF streaming row (it would be a blank line, which decoders skip)', where);
    const bad = keys.find((k) => k.includes('>'));
    if (bad !== undefined)
      throw new DataError(
        `key ${JSON.stringify(bad)} contains '>', which GCF reads as a nested path; GCF streaming cannot write it`,
        where,
      );
    this.encoder.beginArray(sectionName(this.sections++), keys);
    this.keys = keys;
  }
}

function sameKeys(a: string[], b: string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}
