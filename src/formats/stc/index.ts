import { DataError } from '../../errors.js';
import type { JsonValue } from '../../json/types.js';
import { FORMAT_INFO } from '../info.js';
import type { Format } from '../types.js';

// Placeholder until the spec-first implementation lands (docs/formats/stc.md).
export const stc: Format = {
  ...FORMAT_INFO.stc,
  encode: (_value: JsonValue) => {
    throw new DataError('STC encoder not implemented yet');
  },
  decode: (_text: string) => {
    throw new DataError('STC decoder not implemented yet');
  },
};
