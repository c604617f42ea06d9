import { describeDifference, firstDifference, type Difference } from '../json/equal.js';
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
    return { lossless: false, reason: `${format.name} decoder rejected the encoder's own output: ${(err as Error).message}` };
  }
  const difference = firstDifference(value, decoded);
  if (!difference) return { lossless: true };
  return { lossless: false, difference, reason: `${format.name} ${describeDifference(difference)}` };
}
