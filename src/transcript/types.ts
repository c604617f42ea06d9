import type { JsonObject, JsonValue } from '../json/types.js';

/** One tool call as the model saw it: what was called and what came back. */
export interface TranscriptCall {
  kind: 'call';
  tool: string;
  args?: JsonObject;
  /** A string is sent to the model as-is; any other JSON value is encoded with the chosen format. */
  output: JsonValue;
  isError: boolean;
  /** Where the call came from, for error messages and reports (1-based line of its source file). */
  line?: number;
}

/**
 * The model's context was compacted (or otherwise reset) here: outputs sent before it are no longer
 * visible, so nothing after it may refer to them.
 */
export interface TranscriptBoundary {
  kind: 'boundary';
  reason: string;
  line?: number;
}

export type TranscriptEntry = TranscriptCall | TranscriptBoundary;

/** Savings are always taken against one of these, named in every report. */
export { SAVINGS_BASELINES, type SavingsBaseline } from '../metadata/format-metadata.js';

/** Dedup settings; see docs/session.md for why these defaults. */
export interface DedupOptions {
  /** Bodies whose canonical JSON is shorter than this many UTF-8 bytes never get an id or a ref. */
  minBytes: number;
  /** How many distinct recent bodies can be referred to. */
  lruSize: number;
}

export const DEFAULT_DEDUP: DedupOptions = { minBytes: 512, lruSize: 64 };
