import { describeDifference, firstDifference, sameJson, type Difference } from '../json/equal.js';
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
 * Check the round-trip law on one value. Never trusts a format's claim: it decodes the
 * actual encoded text and compares. Pass `encoded` to avoid encoding twice.
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
    decoded = format.decode(text);
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
 * Whether `decoded` is `value` again: first a walk of both that allocates nothing (the benchmark
 * checks every dataset, level and format), then, unless that showed them equal, the serializing
 * comparison that names the first difference.
 */
export function judgeDecoded(format: Format, value: JsonValue, decoded: JsonValue): RoundTrip {
  if (sameJson(value, decoded)) return { lossless: true };
  const difference = firstDifference(value, decoded);
  if (!difference) return { lossless: true };
  return { lossless: false, difference, reason: `${format.name} ${describeDifference(difference)}` };
}
