import { extname } from 'node:path';
import { DataError, UsageError } from '../errors.js';
import { findJsonError } from '../json/parse.js';
import { lineColAt } from '../errors.js';
import { FORMAT_NAMES, type Format } from './types.js';

/** What `--from` accepts: every format, plus NDJSON (one JSON value per line) as input only. */
export const INPUT_FORMAT_NAMES = [...FORMAT_NAMES, 'ndjson'] as const;
export type InputFormatName = (typeof INPUT_FORMAT_NAMES)[number];

const BY_EXTENSION: Record<string, InputFormatName> = {
  '.json': 'json',
  '.ndjson': 'ndjson',
  '.jsonl': 'ndjson',
  '.toon': 'toon',
  '.stc': 'stc',
  '.gcf': 'gcf',
};

export function assertInputFormatName(name: string): InputFormatName {
  if (!(INPUT_FORMAT_NAMES as readonly string[]).includes(name)) {
    throw new UsageError(`unknown input format '${name}' (expected one of: ${INPUT_FORMAT_NAMES.join(', ')})`);
  }
  return name as InputFormatName;
}

export function detectFromExtension(path: string): InputFormatName | undefined {
  return BY_EXTENSION[extname(path).toLowerCase()];
}

/**
 * Guess a format from the text itself, strictest grammar first: GCF (mandatory header), JSON,
 * NDJSON, STC, then TOON. TOON accepts almost any text (a bare word is a string), so it is only
 * tried on text that cannot be mistaken for broken JSON.
 */
export function detectFromContent(text: string, decoders: { stc: Format; toon: Format }, file?: string): InputFormatName {
  const body = text.trimStart();
  if (body.startsWith('GCF ')) return 'gcf';
  try {
    JSON.parse(text);
    return 'json';
  } catch {
    // not a single JSON value
  }
  const lines = text.split('\n').filter((l) => l.trim() !== '');
  if (lines.length > 1 && lines.every(isJsonLine)) return 'ndjson';
  if (succeeds(() => decoders.stc.decode(text))) return 'stc';
  const first = body[0];
  const looksLikeJson = first === '{' || first === '"' || (first === '[' && !/^\[\d+[^\]\n]*\](\{[^}\n]*\})?:/.test(body));
  if (!looksLikeJson && body !== '' && succeeds(() => decoders.toon.decode(text))) return 'toon';
  const { offset, message } = findJsonError(text);
  const { line, col } = lineColAt(text, offset);
  throw new DataError(`cannot tell the format (not JSON, NDJSON, GCF, STC or TOON; pass --from). As JSON: ${message}`, {
    ...(file !== undefined ? { file } : {}),
    line,
    col,
  });
}

function isJsonLine(line: string): boolean {
  try {
    JSON.parse(line);
    return true;
  } catch {
    return false;
  }
}

function succeeds(fn: () => unknown): boolean {
  try {
    fn();
    return true;
  } catch {
    return false;
  }
}
