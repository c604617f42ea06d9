import { createHash } from 'node:crypto';
import type { JsonValue } from '../json/types.js';

/** Hex digits of SHA-256 kept in an id: 48 bits. docs/session.md weighs this against token cost. */
export const ID_HEX_DIGITS = 12;
export const ID_PREFIX = 'shadow_';

/**
 * The text two outputs must share, byte for byte, to count as the same body: JSON.stringify of the
 * output as recorded. Key order is kept (not sorted) because the model sees the keys in that order;
 * two bodies that differ only in key order encode to different text, so calling one "the same" as
 * the other would be a lie. A string output is canonicalised as a JSON string (quoted), so the text
 * `{"a":1}` and the object {"a":1} never share an id.
 */
export function canonicalBody(output: JsonValue): string {
  return JSON.stringify(output);
}

export interface BodyDigest {
  /** What the model sees: `shadow_` + the first ID_HEX_DIGITS hex digits of the digest. */
  id: string;
  /** Full SHA-256 (hex) of the canonical text; a ref is only issued when this matches too. */
  sha256: string;
  /** UTF-8 bytes of the canonical text, for the size gate. */
  bytes: number;
}

export function digestBody(canonical: string): BodyDigest {
  const sha256 = createHash('sha256').update(canonical, 'utf8').digest('hex');
  return { id: ID_PREFIX + sha256.slice(0, ID_HEX_DIGITS), sha256, bytes: Buffer.byteLength(canonical, 'utf8') };
}

/** The line put above a body the first time it is sent (Context Gateway's prefix contract). */
export function idHeader(id: string): string {
  return `<<<SHADOW:${id}>>>`;
}

/** Everything the model receives for a repeated body. */
export function refLine(id: string): string {
  return `${idHeader(id)} same output as the earlier result with this id`;
}
