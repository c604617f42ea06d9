import { DataError, DevboyError } from '../errors.js';
import { parseJson } from '../json/parse.js';
import { isJsonObject, type JsonObject } from '../json/types.js';
import { JsonArraySplitter } from './json-array-splitter.js';
import { lineBatches } from './line-batches.js';

/** How rows arrive: one JSON object per line, or the elements of one JSON array. */
export type RowSyntax = 'ndjson' | 'json-array';

export interface Row {
  value: JsonObject;
  line: number;
  col: number;
}

/**
 * The rows of a text stream, a batch per piece of input, each row a JSON object. With 'auto' the
 * first non-blank character decides: '[' starts an array, anything else is NDJSON.
 */
export async function* rowBatches(chunks: AsyncIterable<string>, syntax: RowSyntax | 'auto', file?: string): AsyncGenerator<Row[]> {
  const source = syntax === 'auto' ? await peekSyntax(chunks) : { syntax, chunks };
  if (source.syntax === 'ndjson') yield* ndjsonRows(source.chunks, file);
  else yield* arrayRows(source.chunks, file);
}

async function* ndjsonRows(chunks: AsyncIterable<string>, file?: string): AsyncGenerator<Row[]> {
  for await (const lines of lineBatches(chunks)) {
    const rows: Row[] = [];
    for (const { text, line } of lines) {
      if (text.trim() === '') continue;
      rows.push(asRow(parseAt(text, line, 1, file), line, 1 + text.length - text.trimStart().length, file));
    }
    if (rows.length > 0) yield rows;
  }
}

async function* arrayRows(chunks: AsyncIterable<string>, file?: string): AsyncGenerator<Row[]> {
  const splitter = new JsonArraySplitter(file);
  for await (const chunk of chunks) {
    const rows = splitter.push(chunk).map((el) => asRow(parseAt(el.text, el.line, el.col, file), el.line, el.col, file));
    if (rows.length > 0) yield rows;
  }
  splitter.end();
}

/**
 * Parse a piece of text that starts at line:col of the input with devboy's strict reader (a number
 * a double cannot hold or a duplicate key is refused, as in buffered convert); errors point into the input.
 */
function parseAt(text: string, line: number, col: number, file?: string): unknown {
  try {
    return parseJson(text);
  } catch (err) {
    if (!(err instanceof DevboyError)) throw err;
    const at = { line: err.location.line ?? 1, col: err.location.col ?? 1 };
    throw new DataError(err.message, {
      ...(file !== undefined ? { file } : {}),
      line: line + at.line - 1,
      col: at.line === 1 ? col + at.col - 1 : at.col,
    });
  }
}

function asRow(value: unknown, line: number, col: number, file?: string): Row {
  if (!isJsonObject(value)) {
    const what = Array.isArray(value) ? 'an array' : value === null ? 'null' : `a ${typeof value}`;
    throw new DataError(`a row must be a JSON object, this is ${what}`, { ...(file !== undefined ? { file } : {}), line, col });
  }
  return { value, line, col };
}

/** Read until the first non-blank character, then hand back everything read plus the rest. */
async function peekSyntax(chunks: AsyncIterable<string>): Promise<{ syntax: RowSyntax; chunks: AsyncIterable<string> }> {
  const iterator = chunks[Symbol.asyncIterator]();
  const seen: string[] = [];
  let syntax: RowSyntax = 'ndjson';
  for (;;) {
    const next = await iterator.next();
    if (next.done) break;
    seen.push(next.value);
    const c = next.value.trimStart()[0];
    if (c !== undefined) {
      syntax = c === '[' ? 'json-array' : 'ndjson';
      break;
    }
  }
  async function* fromStart(): AsyncGenerator<string> {
    try {
      yield* seen;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    } finally {
      // A consumer that stops early must release the source (stdin left open would keep the process alive).
      await iterator.return?.();
    }
  }
  return { syntax, chunks: fromStart() };
}
