import type { Format } from '../formats/types.js';
import { verifyRoundTrip } from '../formats/verify.js';
import type { JsonValue } from '../json/types.js';
import type { Timing } from './schema.js';
import { timeSync } from './timing.js';

/** One list of items encoded in one format: the text, whether it round-trips, and how fast. */
export interface Encoded {
  format: Format;
  text: string;
  bytes: number;
  lossless: boolean;
  reason?: string;
  encode: Timing;
  decode: Timing;
}

export function measureEncoding(format: Format, value: JsonValue, runs: number): Encoded {
  const text = format.encode(value);
  // The check decodes the text once; the timed runs below decode it again, on purpose.
  const check = verifyRoundTrip(format, value, text);
  const encode = timeSync(() => format.encode(value), runs);
  const decode = check.reason?.includes('decoder rejected')
    ? { median_ms: 0, min_ms: 0, max_ms: 0, runs: 0 }
    : timeSync(() => format.decode(text), runs);
  return {
    format,
    text,
    bytes: Buffer.byteLength(text),
    lossless: check.lossless,
    ...(check.reason !== undefined ? { reason: check.reason } : {}),
    encode,
    decode,
  };
}
