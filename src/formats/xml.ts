import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { DataError } from '../errors.js';
import { assertEncodableDepth, loneSurrogateError } from '../json/encode-guard.js';
import { isJsonNumber, numberLoss } from '../json/numbers.js';
import { isWellFormed } from '../json/surrogates.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json/types.js';
import { FORMAT_INFO } from './info.js';
import type { Format } from './types.js';

/**
 * XML through fast-xml-parser both ways, as its documentation sets it up for a round trip: two-space
 * indentation, empty elements self-closed, attributes kept (a key written `@_name` is an attribute,
 * `#text` an element's text). A list is `<items>` with one `<item>` per element; an object alone is
 * `<item>`; anything else `<value>`. Read back as the parser reads it (an empty element is an empty
 * string, a repeated element a list and a single one not, a text's outer spaces trimmed), and then
 * with the type guess an XML reader has to make: a text that is a JSON number a double holds exactly
 * becomes that number, `true` and `false` booleans, the rest stays text. (The parser's own guess
 * would also read `007` as 7 and `12345678901234567890` approximately.) What that loses is measured
 * (loss.ts).
 *
 * The text is checked with the library's validator before it is parsed: the parser alone accepts
 * text that is not XML (`<a><b></a>`), and a key that is no XML name (`+1`, `a b`) makes a document
 * no XML reader accepts, which is reported as such.
 */
const BUILDER = new XMLBuilder({ format: true, indentBy: '  ', suppressEmptyNode: true, ignoreAttributes: false });
const PARSER = new XMLParser({ ignoreAttributes: false, parseTagValue: false, isArray: (_name, jpath) => String(jpath) === 'items.item' });

export const xml: Format = {
  ...FORMAT_INFO.xml,
  encode: (value: JsonValue) => {
    assertEncodableDepth(value);
    const root = Array.isArray(value) ? { items: { item: value } } : isJsonObject(value) ? { item: value } : { value };
    let text: string;
    try {
      text = (BUILDER.build(root) as string).replace(/\n$/, '');
    } catch (err) {
      throw loneSurrogateError('xml', value) ?? new DataError(`XML cannot encode this value: ${(err as Error).message}`, undefined, err);
    }
    if (!isWellFormed(text)) throw loneSurrogateError('xml', value) ?? new DataError('XML output is not valid UTF-8 text');
    return text;
  },
  decode: (text: string) => {
    if (text.trim() === '') return [];
    const valid = XMLValidator.validate(text);
    if (valid !== true) throw new DataError(`invalid XML: ${valid.err.msg}`, { line: valid.err.line, col: valid.err.col });
    let doc: Record<string, unknown>;
    try {
      doc = PARSER.parse(text) as Record<string, unknown>;
    } catch (err) {
      throw new DataError(`invalid XML: ${(err as Error).message}`, undefined, err);
    }
    delete doc['?xml'];
    return guessTypes(unwrap(doc));
  },
};

/** The value inside the wrapper the encoder writes (`<items>`, `<item>`, `<value>`); any other document as parsed. */
function unwrap(doc: Record<string, unknown>): JsonValue {
  const keys = Object.keys(doc);
  if (keys.length === 1 && keys[0] === 'items') {
    const items = doc['items'];
    return (isJsonObject(items) && Array.isArray(items['item']) ? items['item'] : []) as JsonValue;
  }
  if (keys.length === 1 && (keys[0] === 'item' || keys[0] === 'value')) return doc[keys[0]] as JsonValue;
  return doc as JsonValue;
}

/** A text's type as an XML reader guesses it, never rounding a number. */
function guess(text: string): JsonValue {
  if (text === 'true') return true;
  if (text === 'false') return false;
  return isJsonNumber(text) && numberLoss(text) === null ? Number(text) : text;
}

/** Every string leaf of the parsed document through `guess`, in place (iterative: documents may be deep). */
function guessTypes(root: JsonValue): JsonValue {
  if (typeof root === 'string') return guess(root);
  const stack: (JsonValue[] | JsonObject)[] = [];
  if (root !== null && typeof root === 'object') stack.push(root);
  while (stack.length > 0) {
    const c = stack.pop()!;
    const keys: (string | number)[] = Array.isArray(c) ? c.map((_, i) => i) : Object.keys(c);
    for (const k of keys) {
      const v = (c as Record<string | number, JsonValue>)[k]!;
      if (typeof v === 'string') (c as Record<string | number, JsonValue>)[k] = guess(v);
      else if (v !== null && typeof v === 'object') stack.push(v);
    }
  }
  return root;
}
