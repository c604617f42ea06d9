import { assertEncodableDepth } from '../json/encode-guard.js';
import { parseJson } from '../json/parse.js';
import type { JsonValue } from '../json/types.js';
import type { Format } from './types.js';
import { FORMAT_INFO } from './info.js';

/** JSON.stringify writes lone surrogates as escapes, so every JSON value within the depth limit round-trips. */
export const jsonPretty: Format = {
  ...FORMAT_INFO.json,
  encode: (value: JsonValue) => {
    assertEncodableDepth(value);
    return JSON.stringify(value, null, 2);
  },
  decode: (text: string) => parseJson(text),
};

export const jsonCompact: Format = {
  ...FORMAT_INFO['json-compact'],
  encode: (value: JsonValue) => {
    assertEncodableDepth(value);
    return JSON.stringify(value);
  },
  decode: (text: string) => parseJson(text),
};
