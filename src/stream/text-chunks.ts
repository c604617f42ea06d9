import { DataError } from '../errors.js';
import { decodeUtf8 } from '../io/utf8.js';

/**
 * Decode a byte stream as strict UTF-8 piece by piece, dropping a leading BOM. A character split
 * across chunks stays whole (its first bytes wait for the rest); bytes that are not UTF-8 are
 * refused with their byte offset and line:col in the whole input, as `convert` does for a file,
 * instead of becoming U+FFFD on the way to the encoder.
 */
export async function* textChunks(source: AsyncIterable<Buffer | string>, file?: string): AsyncGenerator<string> {
  let carry: Buffer = Buffer.alloc(0);
  let bytesBefore = 0;
  let line = 1;
  let col = 1;
  let first = true;
  for await (const chunk of source) {
    let bytes: Buffer = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk;
    if (carry.length > 0) bytes = Buffer.concat([carry, bytes]);
    const whole = completeLength(bytes);
    carry = bytes.subarray(whole);
    let text = decodeAt(bytes.subarray(0, whole), bytesBefore, line, col, file);
    bytesBefore += whole;
    if (first && text.length > 0) {
      if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      first = false;
    }
    ({ line, col } = advance(text, line, col));
    if (text.length > 0) yield text;
  }
  // What is left is a character the input ended in the middle of.
  if (carry.length > 0) decodeAt(carry, bytesBefore, line, col, file);
}

/** Bytes of `bytes` up to the last character that is complete (at most 3 trailing bytes wait). */
function completeLength(bytes: Uint8Array): number {
  const n = bytes.length;
  for (let back = 1; back <= Math.min(3, n); back++) {
    const b = bytes[n - back]!;
    if (b < 0x80) return n;
    if (b >= 0xc0) {
      const need = b >= 0xf0 ? 4 : b >= 0xe0 ? 3 : 2;
      return back < need ? n - back : n;
    }
  }
  return n;
}

function decodeAt(bytes: Uint8Array, offset: number, line: number, col: number, file: string | undefined): string {
  try {
    return decodeUtf8(bytes);
  } catch (err) {
    if (!(err instanceof DataError)) throw err;
    // Positions in the piece, moved to the whole input.
    const at = err.location;
    const message = err.message.replace(/^invalid UTF-8 at byte (\d+)/, (_, n: string) => `invalid UTF-8 at byte ${offset + Number(n)}`);
    const l = at.line ?? 1;
    throw new DataError(message, {
      ...(file !== undefined ? { file } : {}),
      line: line + l - 1,
      col: l === 1 ? col + (at.col ?? 1) - 1 : (at.col ?? 1),
    });
  }
}

function advance(text: string, line: number, col: number): { line: number; col: number } {
  const last = text.lastIndexOf('\n');
  if (last < 0) return { line, col: col + text.length };
  let newlines = 0;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) newlines++;
  return { line: line + newlines, col: text.length - last };
}
