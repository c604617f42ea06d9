import { DataError } from '../errors.js';
import { assertEncodableDepth, loneSurrogateError } from '../json/encode-guard.js';
import { isWellFormed } from '../json/surrogates.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json/types.js';
import { cellText, defineMember, VALUE_COLUMN } from './cells.js';
import { FORMAT_INFO } from './info.js';
import type { Format } from './types.js';

/**
 * The Markdown key-value list that format-accuracy studies compare with tables: each item under a
 * `## N` heading, one `- key: value` line per key. A value holds what a table cell holds (cells.ts);
 * a value of several lines goes on in lines indented by two spaces, as a list item's text does. A
 * value that is not a list is one item without a heading. No library writes this form, so devboy
 * writes and reads it here (docs/formats/baselines.md).
 */
export const markdownKv: Format = {
  ...FORMAT_INFO['markdown-kv'],
  encode: (value: JsonValue) => {
    assertEncodableDepth(value);
    const text = Array.isArray(value) ? value.map((item, i) => `## ${i + 1}\n${pairs(item)}`).join('\n\n') : pairs(value);
    if (!isWellFormed(text)) throw loneSurrogateError('markdown-kv', value) ?? new DataError('Markdown output is not valid UTF-8 text');
    return text;
  },
  decode: (text: string) => {
    const lines = text.split('\n').map((l) => l.replace(/\r$/, ''));
    const items: JsonObject[] = [];
    let item: JsonObject | undefined;
    let key: string | undefined;
    let listed = false;
    for (const [i, line] of lines.entries()) {
      const at = { line: i + 1, col: 1 };
      if (line.startsWith('## ')) {
        if (!listed && item !== undefined) throw new DataError('invalid Markdown key-value list: a heading after keys that had none', at);
        listed = true;
        items.push((item = {}));
        key = undefined;
      } else if (line.startsWith('- ')) {
        if (item === undefined) {
          if (listed) throw new DataError('invalid Markdown key-value list: a key before the first heading', at);
          item = {};
        }
        key = addPair(item, line, at);
      } else if (line.startsWith('  ') && item !== undefined && key !== undefined) {
        item[key] = `${item[key] as string}\n${line.slice(2)}`;
      } else if (line.trim() !== '') {
        throw new DataError('invalid Markdown key-value list: expected `## N`, `- key: value` or a value line indented by two spaces', at);
      } else {
        key = undefined;
      }
    }
    // An empty value is no value, as an empty cell is.
    for (const it of item === undefined ? [] : listed ? items : [item]) for (const k of Object.keys(it)) if (it[k] === '') delete it[k];
    if (listed) return items;
    return item ?? [];
  },
};

/** A `- key: value` line's member, added to `item`; returns its key. */
function addPair(item: JsonObject, line: string, at: { line: number; col: number }): string {
  const pair = /^- (.*?):(?: (.*))?$/s.exec(line);
  if (!pair) throw new DataError('invalid Markdown key-value list: expected `- key: value`', at);
  const key = pair[1]!;
  if (Object.prototype.hasOwnProperty.call(item, key))
    throw new DataError(`invalid Markdown key-value list: key ${JSON.stringify(key)} appears twice in one item`, at);
  defineMember(item, key, pair[2] ?? '');
  return key;
}

/** One item's `- key: value` lines (an item that is not an object: one `value` line). */
function pairs(item: JsonValue): string {
  const record: JsonObject = isJsonObject(item) ? item : { [VALUE_COLUMN]: item };
  return Object.keys(record)
    .map((key) => {
      const text = cellText(record[key]!);
      return `- ${key}:${text === '' ? '' : ` ${text.replace(/\r?\n/g, '\n  ')}`}`;
    })
    .join('\n');
}
