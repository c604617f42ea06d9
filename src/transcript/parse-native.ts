import { DataError, DevboyError } from '../errors.js';
import { parseJson } from '../json/parse.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json/types.js';
import type { TranscriptEntry } from './types.js';

/**
 * devboy's session file: JSONL, one entry per non-blank line.
 *   {"tool": "...", "args"?: {...}, "output": <JSON or string>, "is_error"?: bool}
 *   {"boundary": "compaction"}
 * Unknown members are ignored so richer logs can be fed in unchanged.
 */
export function parseNativeTranscript(text: string, file?: string): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  forEachJsonLine(text, file, (value, line, raw) => {
    const fail = (message: string, member?: string): never => {
      throw new DataError(message, { ...(file !== undefined ? { file } : {}), line, col: columnOf(raw, member) });
    };
    if (!isJsonObject(value)) fail('session entry must be a JSON object');
    const entry = value as JsonObject;
    if ('boundary' in entry) {
      if (typeof entry.boundary !== 'string' || entry.boundary === '')
        fail('"boundary" must be a non-empty string, e.g. "compaction"', 'boundary');
      entries.push({ kind: 'boundary', reason: entry.boundary as string, line });
      return;
    }
    if (typeof entry.tool !== 'string' || entry.tool === '') fail('a call needs "tool" (a non-empty string)', 'tool');
    if (!('output' in entry)) fail('a call needs "output" (any JSON value; a string is sent as-is)');
    if (entry.args !== undefined && !isJsonObject(entry.args)) fail('"args" must be an object', 'args');
    if (entry.is_error !== undefined && typeof entry.is_error !== 'boolean') fail('"is_error" must be true or false', 'is_error');
    entries.push({
      kind: 'call',
      tool: entry.tool as string,
      ...(entry.args !== undefined ? { args: entry.args as JsonObject } : {}),
      output: entry.output as JsonValue,
      isError: entry.is_error === true,
      line,
    });
  });
  return entries;
}

/** Call `visit` with each non-blank line parsed as JSON; a bad line fails with file:line:col. */
export function forEachJsonLine(
  text: string,
  file: string | undefined,
  visit: (value: JsonValue, line: number, raw: string) => void,
): void {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const raw = lines[i]!.replace(/\r$/, '');
    if (raw.trim() === '') continue;
    let value: JsonValue;
    try {
      // devboy's strict reader: a number a double cannot hold or a duplicate key is refused, not changed.
      value = parseJson(raw);
    } catch (err) {
      if (!(err instanceof DevboyError)) throw err;
      throw new DataError(err.message, {
        ...(file !== undefined ? { file } : {}),
        line: i + 1,
        ...(err.location.col ? { col: err.location.col } : {}),
      });
    }
    visit(value, i + 1, raw);
  }
}

/** Column (1-based) of a member's key in a raw JSON line, or 1 when it is absent. */
function columnOf(raw: string, member?: string): number {
  if (member === undefined) return 1;
  const at = raw.indexOf(JSON.stringify(member));
  return at < 0 ? 1 : at + 1;
}
