import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';
import { DataError } from '../errors.js';
import { assertEncodableDepth, loneSurrogateError } from '../json/encode-guard.js';
import { isJsonNumber, numberLoss } from '../json/numbers.js';
import { isWellFormed } from '../json/surrogates.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json/types.js';
import { defineMember } from './cells.js';
import { FORMAT_INFO } from './info.js';
import { assertXmlChars, xmlChars } from './xml-chars.js';
import { decodeXmlName, encodeXmlName } from './xml-names.js';
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
 * What is written is well-formed XML 1.0, which the builder alone does not ensure: a key that is no
 * XML name (GitHub's `+1`) is escaped as XmlConvert does (xml-names.ts) and read back, and a
 * character XML cannot hold at all (U+0001, U+FFFE) is written U+FFFD, a loss the round trip reports
 * at its path (xml-chars.ts). Read strictly: characters first (the library's validator lets them
 * through), then the validator (the parser alone accepts `<a><b></a>`), then the parser.
 */
const ATTRIBUTE_PREFIX = '@_';
const TEXT_KEY = '#text';
/** The element of a list: of the document's list, and of a list inside a list. */
const LIST_ITEM = 'item';
const BUILDER = new XMLBuilder({
  format: true,
  indentBy: '  ',
  suppressEmptyNode: true,
  ignoreAttributes: false,
  attributeNamePrefix: ATTRIBUTE_PREFIX,
  textNodeName: TEXT_KEY,
  // Its default writes `true` as a bare attribute name, which is HTML, not XML.
  suppressBooleanAttributes: false,
});
const PARSER = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: ATTRIBUTE_PREFIX,
  textNodeName: TEXT_KEY,
  parseTagValue: false,
  isArray: (_name, jpath) => String(jpath) === 'items.item',
});

export const xml: Format = {
  ...FORMAT_INFO.xml,
  encode: (value: JsonValue) => {
    assertEncodableDepth(value);
    // Before names are escaped: a lone surrogate in a key would otherwise be written as an escape.
    const lone = loneSurrogateError('xml', value);
    if (lone) throw lone;
    const ready = writable(value);
    const root = Array.isArray(ready) ? { items: { item: ready } } : isJsonObject(ready) ? { item: ready } : { value: ready };
    let text: string;
    try {
      text = (BUILDER.build(root) as string).replace(/\n$/, '');
    } catch (err) {
      throw new DataError(`XML cannot encode this value: ${(err as Error).message}`, undefined, err);
    }
    if (!isWellFormed(text)) throw new DataError('XML output is not valid UTF-8 text');
    return text;
  },
  decode: (text: string) => {
    if (text.trim() === '') return [];
    assertXmlChars(text);
    const valid = XMLValidator.validate(text);
    if (valid !== true) throw new DataError(`invalid XML: ${valid.err.msg}`, { line: valid.err.line, col: valid.err.col });
    let doc: Record<string, unknown>;
    try {
      doc = PARSER.parse(text) as Record<string, unknown>;
    } catch (err) {
      throw new DataError(`invalid XML: ${(err as Error).message}`, undefined, err);
    }
    delete doc['?xml'];
    return guessTypes(unwrap(readNames(doc) as Record<string, unknown>));
  },
};

/**
 * The value as the builder must get it: keys as XML names, strings in characters XML holds, and a
 * list inside a list as an element holding `<item>`s (the builder would name its elements `<0>`).
 */
function writable(value: JsonValue): JsonValue {
  if (typeof value === 'string') return xmlChars(value);
  if (Array.isArray(value)) return value.map((v) => (Array.isArray(v) ? { [LIST_ITEM]: writable(v) } : writable(v)));
  if (!isJsonObject(value)) return value;
  const out: JsonObject = {};
  for (const key of Object.keys(value)) defineMember(out, nameOf(key, value[key]!), writable(value[key]!));
  return out;
}

/**
 * A key's name. `#text` and an attribute's `@_` are the builder's own when they hold a string, number
 * or boolean (a text, an attribute); holding anything else they are names like any other (the
 * builder would throw on a list in `#text`), escaped like every key that is no XML name.
 */
function nameOf(key: string, value: JsonValue): string {
  const scalar = value !== null && typeof value !== 'object';
  if (key === TEXT_KEY && scalar) return key;
  if (key.startsWith(ATTRIBUTE_PREFIX) && scalar) return ATTRIBUTE_PREFIX + encodeXmlName(key.slice(ATTRIBUTE_PREFIX.length));
  return encodeXmlName(key);
}

function keyOf(name: string): string {
  return name.startsWith(ATTRIBUTE_PREFIX) ? ATTRIBUTE_PREFIX + decodeXmlName(name.slice(ATTRIBUTE_PREFIX.length)) : decodeXmlName(name);
}

/** The parsed document with every element and attribute name read back as its key (iterative: documents may be deep). */
function readNames(root: unknown): unknown {
  const stack: unknown[] = [root];
  while (stack.length > 0) {
    const c = stack.pop();
    if (Array.isArray(c)) {
      for (const v of c) if (v !== null && typeof v === 'object') stack.push(v);
      continue;
    }
    if (c === null || typeof c !== 'object') continue;
    const o = c as Record<string, unknown>;
    const names = Object.keys(o);
    if (names.some((n) => keyOf(n) !== n)) {
      const entries = names.map((n) => [n, o[n]] as const);
      for (const n of names) delete o[n];
      const from = new Map<string, string>();
      for (const [n, v] of entries) {
        const key = keyOf(n);
        const other = from.get(key);
        if (other !== undefined)
          throw new DataError(`invalid XML: elements ${other} and ${n} both name the key ${JSON.stringify(key)}`, { line: 1, col: 1 });
        from.set(key, n);
        defineMember(o as JsonObject, key, v as JsonValue);
      }
    }
    for (const n of Object.keys(o)) {
      const v = o[n];
      if (v !== null && typeof v === 'object') stack.push(v);
    }
  }
  return root;
}

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
