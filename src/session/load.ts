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
export async function readSessionFile(source: string, kind: SessionKind | 'auto' = 'auto', stdin?: NodeJS.ReadableStream): Promise<LoadedSession> {
  const input = await readInput(source, stdin);
  return { ...parseSession(input.text, kind, input.name), name: input.name };
}

export function parseSession(text: string, kind: SessionKind | 'auto', file?: string): { kind: SessionKind; entries: SessionEntry[] } {
  const resolved = kind === 'auto' ? detectSessionKind(text, file) : assertSessionKind(kind);
  switch (resolved) {
    case 'devboy':
      return { kind: resolved, entries: parseNativeSession(text, file) };
    case 'claude-code':
      return { kind: resolved, entries: importClaudeCode(text, file) };
    case 'openai-chat':
      return { kind: resolved, entries: importOpenAiChat(text, file) };
  }
}

export function assertSessionKind(name: string): SessionKind {
  if (!(SESSION_KINDS as readonly string[]).includes(name)) throw new UsageError(`unknown session format '${name}' (expected one of: ${SESSION_KINDS.join(', ')})`);
  return name as SessionKind;
}

/** Tell the formats apart by the first record: each has members the others lack. */
export function detectSessionKind(text: string, file?: string): SessionKind {
  const first = firstRecord(text);
  const where = file !== undefined ? { file } : undefined;
  // Nothing, or not JSON at all: devboy's own parser says exactly which line and column is wrong.
  if (first === undefined || first === null) return 'devboy';
  if (isJsonObject(first)) {
    if ('tool' in first || 'boundary' in first) return 'devboy';
    if ('sessionId' in first || 'parentUuid' in first || isJsonObject(first.message)) return 'claude-code';
    if ('role' in first || Array.isArray(first.messages)) return 'openai-chat';
  }
  if (Array.isArray(first)) return 'openai-chat';
  throw new DataError('cannot tell the session format (devboy JSONL, claude-code or openai-chat); pass --import', { ...where, line: 1 });
}

/** The whole text as one JSON value, else its first non-blank line, else undefined. */
function firstRecord(text: string): JsonValue | undefined {
  const body = text.trim();
  if (body === '') return undefined;
  if (body.startsWith('[')) {
    try {
      return JSON.parse(body) as JsonValue;
    } catch {
      // not one document: fall through to the first line
    }
  }
  const line = body.split('\n', 1)[0]!;
  try {
    return JSON.parse(line) as JsonValue;
  } catch {
    // A pretty-printed request body spans lines; the whole text may still be one value.
    try {
      return JSON.parse(body) as JsonValue;
    } catch {
      return null;
    }
  }
}
