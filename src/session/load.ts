import { DataError, UsageError } from '../errors.js';
import { readInput } from '../io/read-input.js';
import { isJsonObject, type JsonValue } from '../json/types.js';
import { importClaudeCode } from './import-claude-code.js';
import { importOpenAiChat } from './import-openai-chat.js';
import { parseNativeSession } from './parse-native.js';
import type { SessionEntry } from './types.js';

export const SESSION_KINDS = ['devboy', 'claude-code', 'openai-chat'] as const;
export type SessionKind = (typeof SESSION_KINDS)[number];

export interface LoadedSession {
  kind: SessionKind;
  /** What errors and reports call the file. */
  name: string;
  entries: SessionEntry[];
}

/** Read a session file (or "-" for standard input) in devboy's format or an imported transcript format. */
export async function readSessionFile(
  source: string,
  kind: SessionKind | 'auto' = 'auto',
  stdin?: NodeJS.ReadableStream,
): Promise<LoadedSession> {
  const input = await readInput(source, stdin);
  return { ...parseSession(input.text, kind, input.name), name: input.name };
}

export function parseSession(text: string, kind: SessionKind | 'auto', file?: string): { kind: SessionKind; entries: SessionEntry[] } {
  const resolved = kind === 'auto' ? detectSessionKind(text, file) : assertSessionKind(kind);
  const entries = parseAs(resolved, text, file);
  // A transcript read as the wrong kind yields nothing; a report of zero calls would hide that.
  if (!entries.some((e) => e.kind === 'call'))
    throw new DataError(`no tool calls found (read as ${resolved})`, file !== undefined ? { file } : undefined);
  return { kind: resolved, entries };
}

function parseAs(kind: SessionKind, text: string, file?: string): SessionEntry[] {
  switch (kind) {
    case 'devboy':
      return parseNativeSession(text, file);
    case 'claude-code':
      return importClaudeCode(text, file);
    case 'openai-chat':
      return importOpenAiChat(text, file);
  }
}

export function assertSessionKind(name: string): SessionKind {
  if (!(SESSION_KINDS as readonly string[]).includes(name))
    throw new UsageError(`unknown session format '${name}' (expected one of: ${SESSION_KINDS.join(', ')})`);
  return name as SessionKind;
}

/** Tell the formats apart by their first recognisable records: each has members the others lack. */
export function detectSessionKind(text: string, file?: string): SessionKind {
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

function kindOf(record: JsonValue): SessionKind | undefined {
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
