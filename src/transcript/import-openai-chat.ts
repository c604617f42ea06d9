import { DataError } from '../errors.js';
import { parseJson } from '../json/parse.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json/types.js';
import { forEachJsonLine } from './parse-native.js';
import { argsObject, contentText, toolTextToOutput } from './tool-text.js';
import type { TranscriptEntry } from './types.js';

/**
 * OpenAI Chat Completions messages: an assistant message lists `tool_calls`
 * ({id, type: "function", function: {name, arguments: "<JSON text>"}}) and each answer is a
 * `{"role": "tool", "tool_call_id", "content"}` message. Accepted as a request body
 * ({"messages": [...]}), a JSON array of messages, or JSONL with one message per line.
 * The format has no error flag, so no call is marked as an error.
 */
export function importOpenAiChat(text: string, file?: string): TranscriptEntry[] {
  const calls = new Map<string, { name: string; args?: JsonObject }>();
  const entries: TranscriptEntry[] = [];
  for (const { message, line } of messagesOf(text, file)) {
    if (!isJsonObject(message)) continue;
    if (message.role === 'assistant' && Array.isArray(message.tool_calls)) {
      for (const tc of message.tool_calls) {
        if (!isJsonObject(tc) || typeof tc.id !== 'string' || !isJsonObject(tc.function)) continue;
        const args = argsObject(tc.function.arguments);
        calls.set(tc.id, { name: typeof tc.function.name === 'string' ? tc.function.name : 'unknown', ...(args ? { args } : {}) });
      }
    } else if (message.role === 'tool') {
      const call = typeof message.tool_call_id === 'string' ? calls.get(message.tool_call_id) : undefined;
      entries.push({
        kind: 'call',
        tool: call?.name ?? 'unknown',
        ...(call?.args ? { args: call.args } : {}),
        output: toolTextToOutput(contentText(message.content)),
        isError: false,
        ...(line !== undefined ? { line } : {}),
      });
    }
  }
  return entries;
}

/** The messages of a request body, a JSON array or JSONL (with each message's line). */
function messagesOf(text: string, file: string | undefined): Array<{ message: JsonValue; line?: number }> {
  const messages: Array<{ message: JsonValue; line?: number }> = [];
  const trimmed = text.trimStart();
  if (trimmed.startsWith('[') || (trimmed.startsWith('{') && isRequestBody(text))) {
    const doc = parseJson(text, file);
    // One line of JSONL is also one JSON document: a lone message.
    const list = Array.isArray(doc) ? doc : isJsonObject(doc) && 'role' in doc ? [doc] : isJsonObject(doc) ? doc.messages : undefined;
    if (!Array.isArray(list)) throw new DataError('expected a "messages" array', file !== undefined ? { file } : undefined);
    for (const message of list) messages.push({ message });
  } else {
    forEachJsonLine(text, file, (message, line) => messages.push({ message, line }));
  }
  return messages;
}

/** A whole-file JSON document (not JSONL): it parses as one value. */
function isRequestBody(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
