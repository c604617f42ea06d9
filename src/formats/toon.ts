import { decode, encode, ToonDecodeError } from '@toon-format/toon';
import { DataError } from '../errors.js';
import type { JsonValue } from '../json/types.js';
import { FORMAT_INFO } from './info.js';
import type { Format, FormatOptions } from './types.js';

/** TOON through its reference implementation; only delimiter and indent are exposed. */
export function createToon(options: FormatOptions['toon'] = {}): Format {
  const indentSize = options.indent ?? 2;
  const delimiter = options.delimiter ?? ',';
  return {
    ...FORMAT_INFO.toon,
    encode: (value: JsonValue) => encode(value, { indentSize, delimiter }),
    decode: (text: string) => {
      try {
        return decode(text, { indentSize, strict: true }) as JsonValue;
      } catch (err) {
        if (err instanceof ToonDecodeError) {
          const message = err.message.replace(/^Line \d+: /, '');
          throw new DataError(`invalid TOON: ${message}`, err.line !== undefined ? { line: err.line } : undefined, err);
        }
        throw new DataError(`invalid TOON: ${(err as Error).message}`, undefined, err);
      }
    },
  };
}
