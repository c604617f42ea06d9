import { DataError, UsageError } from '../errors.js';
import { isJsonObject, type JsonValue } from '../json/types.js';
import { importClaudeCode } from './import-claude-code.js';
import { importOpenAiChat } from './import-openai-chat.js';
import { parseNativeTranscript } from './parse-native.js';
import type { TranscriptEntry } from './types.js';

export const TRANSCRIPT_KINDS = ['devboy', 'claude-code', 'openai-chat'] as const;
export type TranscriptKind = (typeof TRANSCRIPT_KINDS)[number];

/** Read a session transcript in devboy's format or an imported one (`auto`: told apart by its first records). */
export function parseTranscript(
  text: string,
  kind: TranscriptKind | 'auto',
  file?: string,
): { kind: TranscriptKind; entries: TranscriptEntry[] } {
  const resolved = kind === 'auto' ? detectTranscriptKind(text, file) : assertTranscriptKind(kind);
  const entries = parseAs(resolved, text, file);
  // A transcript read as the wrong kind yields nothing; a report of zero calls would hide that.
  if (!entries.some((e) => e.kind === 'call'))
    throw new DataError(`no tool calls found (read as ${resolved})`, file !== undefined ? { file } : undefined);
  return { kind: resolved, entries };
}

function parseAs(kind: TranscriptKind, text: string, file?: string): TranscriptEntry[] {
  switch (kind) {
    case 'devboy':
      return parseNativeTranscript(text, file);
    case 'claude-code':
      return importClaudeCode(text, file);
    case 'openai-chat':
      return importOpenAiChat(text, file);
  }
}

export function assertTranscriptKind(name: string): TranscriptKind {
  if (!(TRANSCRIPT_KINDS as readonly string[]).includes(name))
    throw new UsageError(`unknown session format '${name}' (expected one of: ${TRANSCRIPT_KINDS.join(', ')})`);
  return name as TranscriptKind;
}

/** Tell the formats apart by their first recognisable records: each has members the others lack. */
export function detectTranscriptKind(text: string, file?: string): TranscriptKind {
  const records = leadingRecords(text);
  // Nothing, or not JSON at all: devboy's own parser says exactly which line and column is wrong.
  if (records.length === 0) return 'devboy';
  for (const r of records) {
    const kind = kindOf(r);
    if (kind) return kind;
  }
  throw new DataError('cannot tell the session format (devboy JSONL, claude-code or openai-chat); pass --import', {
    ...(file !== undefined ? { file } : {}),
    line: 1,
  });
}

function kindOf(record: JsonValue): TranscriptKind | undefined {
  if (Array.isArray(record)) return 'openai-chat';
  if (!isJsonObject(record)) return undefined;
  if ('tool' in record || 'boundary' in record) return 'devboy';
  // Claude Code events carry a session id, a parent link, or a wrapped API message; its first line is often a summary.
  if ('sessionId' in record || 'parentUuid' in record || isJsonObject(record.message) || record.type === 'summary') return 'claude-code';
  if ('role' in record || Array.isArray(record.messages)) return 'openai-chat';
  return undefined;
}

/** The whole text as one JSON document if it is one, else its first lines that parse; stops at the first that does not. */
function leadingRecords(text: string): JsonValue[] {
  const body = text.trim();
  if (body === '') return [];
  try {
    return [JSON.parse(body) as JsonValue];
  } catch {
    // JSONL
  }
  const out: JsonValue[] = [];
  for (const line of body.split('\n', 20)) {
    if (line.trim() === '') continue;
    try {
      out.push(JSON.parse(line) as JsonValue);
    } catch {
      break;
    }
  }
  return out;
}
