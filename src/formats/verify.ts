import { describeDifference, firstDifference, jsonEqual, type Difference } from '../json/equal.js';
import { isWellFormed } from '../json/surrogates.js';
import type { JsonValue } from '../json/types.js';
import type { Format } from './types.js';

export interface RoundTrip {
  /** decode(encode(x)) is JSON-equal to x: same values, same key order. */
  lossless: boolean;
  /** When not lossless: one line saying what was lost and where. */
  reason?: string;
  difference?: Difference;
}

/**
 * Check the round-trip law on one value. Never trusts a format's claim: it decodes the actual
 * encoded text, as a reader receives it. Output is written as UTF-8, so what is decoded is the
 * UTF-8 encoding of the text read back (a lone surrogate, which UTF-8 cannot hold, arrives as
 * U+FFFD), not the in-memory string. Pass `encoded` to avoid encoding twice.
 *
 * The law is checked against `value`, so it is only as good as the reader that made `value`: devboy's
 * readers refuse input whose meaning a JavaScript value would change (see docs/formats/exactness.md).
 */
export function verifyRoundTrip(format: Format, value: JsonValue, encoded?: string): RoundTrip {
  let text: string;
  try {
    text = encoded ?? format.encode(value);
  } catch (err) {
    return { lossless: false, reason: `${format.name} encoder failed: ${(err as Error).message}` };
  }
  let decoded: JsonValue;
  try {
    decoded = format.decode(asWritten(text));
  } catch (err) {
    return decoderRejected(format, err);
  }
  return judgeDecoded(format, value, decoded);
}

/** The verdict when `format.decode` threw on the encoder's own output. */
export function decoderRejected(format: Format, err: unknown): RoundTrip {
  return { lossless: false, reason: `${format.name} decoder rejected the encoder's own output: ${(err as Error).message}` };
}

/**
 * Whether `decoded` is `value` again: first the plain equality walk, which builds no paths (the
 * benchmark checks every dataset, level and format), and only when it finds a difference the walk
 * that names where.
 */
export function judgeDecoded(format: Format, value: JsonValue, decoded: JsonValue): RoundTrip {
  if (jsonEqual(value, decoded)) return { lossless: true };
  const difference = firstDifference(value, decoded);
  if (!difference) return { lossless: true };
  return { lossless: false, difference, reason: `${format.name} ${describeDifference(difference)}` };
}

/** The text a reader gets back from its UTF-8 bytes; the same string unless it holds lone surrogates. */
export function asWritten(text: string): string {
  return isWellFormed(text) ? text : Buffer.from(text, 'utf8').toString('utf8');
}
