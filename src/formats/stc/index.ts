import type { JsonValue } from '../../json/types.js';
import { FORMAT_INFO } from '../info.js';
import type { Format } from '../types.js';
import { decodeStc } from './decode.js';
import { encodeStc } from './encode.js';

export { decodeStc } from './decode.js';
export { encodeStc, tableFields } from './encode.js';
export { isIdentifier, keyText, MAX_DEPTH } from './syntax.js';

/** STC as specified in docs/formats/stc.md: canonical encoder, strict recursive-descent decoder. */
export const stc: Format = {
  ...FORMAT_INFO.stc,
  encode: (value: JsonValue) => encodeStc(value),
  decode: (text: string) => decodeStc(text),
};
