import { decode, encode, ToonDecodeError } from '@toon-format/toon';
import { DataError, lineColAt } from '../errors.js';
import { depthMessage, overIndented } from '../json/depth.js';
import { assertEncodableDepth, loneSurrogateError } from '../json/encode-guard.js';
import { findNumberLoss } from '../json/numbers.js';
import { isWellFormed } from '../json/surrogates.js';
import type { JsonValue } from '../json/types.js';
import { FORMAT_INFO } from './info.js';
import type { Format, FormatOptions } from './types.js';

/**
 * TOON through its reference implementation; only delimiter and indent are exposed.
 * Around it, what the library does not check (docs/formats/exactness.md):
 * - encode: nesting beyond MAX_DEPTH is refused (the library recurses and would overflow), and a lone
 *   surrogate is refused with its path (the library throws without one);
 * - decode: lines indented MAX_DEPTH levels or more are refused before the recursive decoder runs,
 *   and a number the value does not hold exactly (`12345678901234567890`, `1e-400`, or `1e400`, which
 *   the library silently reads as a string) is refused at its line:col.
 */
export function createToon(options: FormatOptions['toon'] = {}): Format {
  const indentSize = options.indent ?? 2;
  const delimiter = options.delimiter ?? ',';
  return {
    ...FORMAT_INFO.toon,
    encode: (value: JsonValue) => {
      assertEncodableDepth(value);
      let text: string;
      try {
        text = encode(value, { indentSize, delimiter });
      } catch (err) {
        throw loneSurrogateError('toon', value) ?? err;
      }
      if (!isWellFormed(text)) throw loneSurrogateError('toon', value) ?? new DataError('TOON output is not valid UTF-8 text');
      return text;
    },
    decode: (text: string) => {
      const deep = overIndented(text, indentSize);
      if (deep) throw new DataError(depthMessage(), deep);
      let value: JsonValue;
      try {
        value = decode(text, { indentSize, strict: true }) as JsonValue;
      } catch (err) {
        if (err instanceof ToonDecodeError) {
          const message = err.message.replace(/^Line \d+: /, '');
          throw new DataError(`invalid TOON: ${message}`, err.line !== undefined ? { line: err.line } : undefined, err);
        }
        throw new DataError(`invalid TOON: ${(err as Error).message}`, undefined, err);
      }
      const loss = findNumberLoss(text, value);
      if (loss) throw new DataError(`number ${loss.literal} ${loss.loss}`, lineColAt(text, loss.offset));
      return value;
    },
  };
}
