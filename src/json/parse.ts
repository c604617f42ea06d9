import { DataError, lineColAt } from '../errors.js';
import type { JsonValue } from './types.js';

/**
 * JSON.parse, but a failure says where: V8's messages on Node 20 often omit the position,
 * so on failure a small validating scanner walks the text to find the first bad character.
 */
export function parseJson(text: string, file?: string): JsonValue {
  try {
    return JSON.parse(text) as JsonValue;
  } catch {
    const { offset, message } = findJsonError(text);
    const { line, col } = lineColAt(text, offset);
    throw new DataError(`invalid JSON: ${message}`, { ...(file !== undefined ? { file } : {}), line, col });
  }
}

/** Parse newline-delimited JSON: one value per non-blank line. Errors name the line. */
export function parseNdjson(text: string, file?: string): JsonValue[] {
  const values: JsonValue[] = [];
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r$/, '');
    if (raw.trim() === '') continue;
    try {
      values.push(JSON.parse(raw) as JsonValue);
    } catch {
      const { offset, message } = findJsonError(raw);
      throw new DataError(`invalid NDJSON line: ${message}`, { ...(file !== undefined ? { file } : {}), line: i + 1, col: offset + 1 });
    }
  }
  return values;
}

interface JsonSyntaxError {
  offset: number;
  message: string;
}

/** Locate the first syntax error of a text JSON.parse rejected. */
export function findJsonError(text: string): JsonSyntaxError {
  let i = 0;
  const fail = (message: string): never => {
    throw { offset: i, message } satisfies JsonSyntaxError;
  };
  const describe = (): string => (i >= text.length ? 'end of input' : `'${text[i] === '\n' ? '\\n' : text[i]}'`);
  const ws = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\t' || text[i] === '\n' || text[i] === '\r')) i++;
  };
  const literal = (word: string): void => {
    for (let k = 0; k < word.length; k++) {
      if (text[i] !== word[k]) fail(`unexpected ${describe()} (expected ${word})`);
      i++;
    }
  };
  const string = (): void => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail('unterminated string');
      const c = text.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return;
      }
      if (c < 0x20) fail('control character in string (must be escaped)');
      if (c === 0x5c) {
        const e = text[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) {
            i += 2;
            fail('bad \\u escape');
          }
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) {
          i += 2;
        } else {
          i++;
          fail(`bad escape ${e === undefined ? 'at end of input' : `'\\${e}'`}`);
        }
      } else {
        i++;
      }
    }
  };
  const number = (): void => {
    const m = /^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?/.exec(text.slice(i, i + 400));
    if (!m || m[0] === '-' || m[0] === '') fail(`unexpected ${describe()} (expected a number)`);
    i += m![0].length;
  };
  const value = (depth: number): void => {
    ws();
    const c = text[i];
    if (c === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`unexpected ${describe()} (expected a property name in double quotes)`);
        string();
        ws();
        if (text[i] !== ':') fail(`unexpected ${describe()} (expected ':')`);
        i++;
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`unexpected ${describe()} (expected ',' or '}')`);
      }
    } else if (c === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value(depth + 1);
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`unexpected ${describe()} (expected ',' or ']')`);
      }
    } else if (c === '"') string();
    else if (c === 't') literal('true');
    else if (c === 'f') literal('false');
    else if (c === 'n') literal('null');
    else if (c === '-' || (c !== undefined && c >= '0' && c <= '9')) number();
    else fail(`unexpected ${describe()} (expected a value)`);
  };
  try {
    if (text.charCodeAt(0) === 0xfeff) i = 1;
    value(0);
    ws();
    if (i < text.length) fail(`unexpected ${describe()} after the JSON value`);
    // The scanner accepted what JSON.parse refused (e.g. nesting too deep for V8).
    return { offset: 0, message: 'not valid JSON' };
  } catch (e) {
    if (e && typeof e === 'object' && 'offset' in e) return e as JsonSyntaxError;
    return { offset: i, message: 'nesting too deep' };
  }
}
