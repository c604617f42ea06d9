import { parseJson } from '../json/parse.js';
import type { JsonValue } from '../json/types.js';
import type { Format } from './types.js';
import { FORMAT_INFO } from './info.js';

export const jsonPretty: Format = {
  ...FORMAT_INFO.json,
  encode: (value: JsonValue) => JSON.stringify(value, null, 2),
  decode: (text: string) => parseJson(text),
};

export const jsonCompact: Format = {
  ...FORMAT_INFO['json-compact'],
  encode: (value: JsonValue) => JSON.stringify(value),
  decode: (text: string) => parseJson(text),
};
