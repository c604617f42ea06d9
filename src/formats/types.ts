import type { JsonValue } from '../json/types.js';

export const FORMAT_NAMES = ['json', 'json-compact', 'toon', 'stc', 'gcf'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/** What a format is, known without loading its implementation. */
export interface FormatInfo {
  name: FormatName;
  /** Human title, e.g. "TOON (Token-Oriented Object Notation)". */
  title: string;
  mediaType: string;
  /** File extension including the dot. */
  extension: string;
  /** Which implementation encodes and decodes it, for reports (e.g. "@toon-format/toon 4.4.0"). */
  implementation: string;
  /**
   * `exact`: decode(encode(x)) equals x for every JSON value (property-tested). `known-losses`: the
   * implementation loses some inputs (documented in docs/formats/); every use is verified.
   */
  roundTrip: 'exact' | 'known-losses';
}

/**
 * A lossless text encoding of JSON values.
 * `decode` throws a DataError (with line/col when the parser knows them) on malformed text.
 * Losslessness is a claim to be checked, never assumed: see `verify.ts`.
 */
export interface Format extends FormatInfo {
  encode(value: JsonValue): string;
  decode(text: string): JsonValue;
}

export type ToonDelimiter = ',' | '\t' | '|';

/** Per-format knobs a user can set; every format has working defaults. */
export interface FormatOptions {
  toon?: { delimiter?: ToonDelimiter; indent?: number };
}
