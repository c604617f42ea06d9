import { isJsonObject, type JsonObject, type JsonValue } from '../json/types.js';
import { forEachJsonLine } from './parse-native.js';
import { argsObject, contentText, toolTextToOutput } from './tool-text.js';
import type { TranscriptEntry } from './types.js';

/**
 * Claude Code transcripts (~/.claude/projects/<project>/<session>.jsonl): one event per line.
 * Assistant events carry Anthropic Messages API `tool_use` blocks ({id, name, input}); the user event
 * that follows carries `tool_result` blocks ({tool_use_id, content, is_error}). A `system` event with
 * subtype `compact_boundary` (or, from older versions, a user event marked `isCompactSummary`) is where
 * Claude Code compacted the context. Sidechain events belong to a sub-agent's own context, not the
 * main model's, and are skipped, as is every other event.
 */
export function importClaudeCode(text: string, file?: string): TranscriptEntry[] {
  const entries: TranscriptEntry[] = [];
  const pending = new Map<string, { name: string; input?: JsonObject }>();
  forEachJsonLine(text, file, (event, line) => {
    if (!isJsonObject(event) || event.isSidechain === true) return;
    if ((event.type === 'system' && event.subtype === 'compact_boundary') || event.isCompactSummary === true) {
      if (entries.at(-1)?.kind !== 'boundary') entries.push({ kind: 'boundary', reason: 'compaction', line });
      return;
    }
    const content = isJsonObject(event.message) ? event.message.content : undefined;
    if (!Array.isArray(content)) return;
    for (const block of content) {
      if (!isJsonObject(block)) continue;
      if (block.type === 'tool_use' && typeof block.id === 'string') {
        const input = argsObject(block.input);
        pending.set(block.id, { name: typeof block.name === 'string' ? block.name : 'unknown', ...(input ? { input } : {}) });
      } else if (block.type === 'tool_result' && typeof block.tool_use_id === 'string') {
        const use = pending.get(block.tool_use_id);
        entries.push(toCall(use, block.content, block.is_error === true, line));
      }
    }
  });
  return entries;
}

function toCall(
  use: { name: string; input?: JsonObject } | undefined,
  content: JsonValue | undefined,
  isError: boolean,
  line: number,
): TranscriptEntry {
  return {
    kind: 'call',
    // A result whose tool_use is not in the file (the transcript was cut) still cost tokens.
    tool: use?.name ?? 'unknown',
    ...(use?.input ? { args: use.input } : {}),
    output: toolTextToOutput(contentText(content)),
    isError,
    line,
  };
}
