import { parseJson } from '../json/parse.js';
import type { JsonValue } from '../json/types.js';

/**
 * What a transcript's tool result text becomes in a session. MCP servers and API tools return JSON as
 * text; a text that is exactly one JSON object or array is parsed so an encoder can work on it (the
 * baseline then re-serialises it: pick --savings-baseline to match how it was sent). Any other text
 * stays a string and is sent as-is.
 */
export function toolTextToOutput(text: string): JsonValue {
  const t = text.trim();
  if ((t.startsWith('{') && t.endsWith('}')) || (t.startsWith('[') && t.endsWith(']'))) {
    try {
      return parseJson(t);
    } catch {
      // Text that only looks like JSON, or JSON a JavaScript value would change (a huge number, a
      // duplicate key): sent as the text it is, so its meaning is kept.
    }
  }
  return text;
}

/** Text of a content field that is a string or a list of blocks; non-text blocks (images) are dropped. */
export function contentText(content: JsonValue | undefined): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .filter(
      (b): b is { type: string; text: string } =>
        typeof b === 'object' && b !== null && !Array.isArray(b) && b.type === 'text' && typeof b.text === 'string',
    )
    .map((b) => b.text)
    .join('\n');
}

/** Tool-call arguments: OpenAI sends them as a JSON string, Anthropic as an object. */
export function argsObject(args: JsonValue | undefined): { [key: string]: JsonValue } | undefined {
  let v = args;
  if (typeof v === 'string') {
    try {
      v = parseJson(v);
    } catch {
      return { arguments: args as string };
    }
  }
  return typeof v === 'object' && v !== null && !Array.isArray(v) ? v : undefined;
}
