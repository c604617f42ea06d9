import type { JsonValue } from '../json/types.js';

export const FORMAT_NAMES = ['json', 'json-compact', 'toon', 'stc', 'gcf', 'yaml', 'csv', 'markdown-table', 'markdown-kv', 'xml'] as const;
export type FormatName = (typeof FORMAT_NAMES)[number];

/** What a format is, known without loading its implementation. */
export interface FormatInfo {
  name: FormatName;
  /** Human title, e.g. "TOON (Token-Oriented Object Notation)". */
  title: string;
  mediaType: string;
  /** File extension including the dot: what a file of this format is named with. */
  extension: string;
  /** Other extensions a file of it is read from (`.yml` for YAML); `convert` and `stats` tell formats by them. */
  extensionAliases?: readonly string[];
  /** Which implementation encodes and decodes it, for reports (e.g. "@toon-format/toon 4.4.0"). */
  implementation: string;
  /**
   * `exact`: decode(encode(x)) equals x for every JSON value (property-tested). `known-losses`: the
   * implementation loses some inputs (documented in docs/formats/); every use is verified. `lossy`:
   * the format itself cannot carry JSON's types or nesting (a CSV cell is text), so most inputs lose
   * something; what they lose is reported value by value (loss.ts).
   */
  roundTrip: 'exact' | 'known-losses' | 'lossy';
  /**
   * `candidate`: a format devboy measures to recommend (the benchmark's default set, `--to auto`).
   * `baseline`: what teams paste today (YAML, CSV, Markdown, XML), measured beside the candidates so
   * a user can see what switching saves and what their format loses; never recommended.
   */
  role: 'candidate' | 'baseline';
}

/**
 * A text encoding of JSON values, with the decoder that reads it back.
 * `decode` throws a DataError (with line/col when the parser knows them) on malformed text.
 * Losslessness is a claim to be checked, never assumed: see `verify.ts`, and `loss.ts` for what a
 * lossy round trip lost.
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
