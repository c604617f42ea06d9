import { extname } from 'node:path';
import { DataError, DevboyError, lineColAt, UsageError, type Location } from '../errors.js';
import { findJsonError } from '../json/parse.js';
import { fileExtensions } from './info.js';
import { FORMAT_NAMES, type Format } from './types.js';

/** What `--from` accepts: every format, plus NDJSON (one JSON value per line) as input only. */
export const INPUT_FORMAT_NAMES = [...FORMAT_NAMES, 'ndjson'] as const;
export type InputFormatName = (typeof INPUT_FORMAT_NAMES)[number];

/** NDJSON is read, never written, so no format declares its extensions. */
const NDJSON_EXTENSIONS = ['.ndjson', '.jsonl'];

/** The formats a file extension may hold, in registry order, from the extensions each format declares. */
const BY_EXTENSION: ReadonlyMap<string, readonly InputFormatName[]> = (() => {
  const map = new Map<string, InputFormatName[]>();
  const add = (ext: string, name: InputFormatName) => map.set(ext, [...(map.get(ext) ?? []), name]);
  for (const name of FORMAT_NAMES) for (const ext of fileExtensions(name)) add(ext, name);
  for (const ext of NDJSON_EXTENSIONS) add(ext, 'ndjson');
  return map;
})();

export function assertInputFormatName(name: string): InputFormatName {
  if (!(INPUT_FORMAT_NAMES as readonly string[]).includes(name)) {
    throw new UsageError(`unknown input format '${name}' (expected one of: ${INPUT_FORMAT_NAMES.join(', ')})`);
  }
  return name as InputFormatName;
}

export function detectFromExtension(path: string, text?: string): InputFormatName | undefined {
  const formats = BY_EXTENSION.get(extname(path).toLowerCase());
  if (formats === undefined) return undefined;
  // `.md` holds either Markdown form: a table starts with `|`.
  if (formats.includes('markdown-table')) return text?.trimStart().startsWith('|') ? 'markdown-table' : 'markdown-kv';
  // Other formats that share an extension share a reader (json and json-compact): the first serves.
  return formats[0];
}

/**
 * Guess a format from the text itself, strictest grammar first: GCF (mandatory header), JSON,
 * NDJSON, STC, then TOON. TOON accepts almost any text (a bare word is a string), so it is only
 * tried on text that cannot be mistaken for broken JSON.
 */
export function detectFromContent(text: string, decoders: { stc: Format; toon: Format }, file?: string): InputFormatName {
  const body = text.trimStart();
  if (body.startsWith('GCF ')) return 'gcf';
  if (body === '') throw new DataError('empty input: nothing to convert', file !== undefined ? { file } : undefined);
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
  if (!looksLikeJson && succeeds(() => decoders.toon.decode(text))) return 'toon';
  const likely = likeliest(body);
  const { message, location } = failure(likely, text, decoders);
  throw new DataError(
    `cannot tell the format (tried GCF, JSON, NDJSON, STC and TOON; pass --from); likeliest ${LABEL[likely]}: ${message}`,
    { ...(file !== undefined ? { file } : {}), ...location },
  );
}

type Guess = 'json' | 'ndjson' | 'stc' | 'toon';
const LABEL: Record<Guess, string> = { json: 'JSON', ndjson: 'NDJSON', stc: 'STC', toon: 'TOON' };

/**
 * The format a text that no grammar accepts was most likely meant to be, from its shape: whose error
 * helps the person fix it. A count header (`[3]…`) is TOON over several lines and STC on one; an
 * object with a bare key (`{a:1}`) is STC; several lines that are each an object or array are NDJSON;
 * other brackets and JSON scalars are JSON; the rest (`key: value`, `b[3]: x,y`) is TOON.
 */
function likeliest(body: string): Guess {
  const lines = body.split('\n').filter((l) => l.trim() !== '');
  const first = body[0];
  if (first === '[' && /^\[\d+\]/.test(body)) return lines.length > 1 ? 'toon' : 'stc';
  if (first === '{' && /^\{\s*[A-Za-z_]\w*\s*[:[]/.test(body)) return 'stc';
  if (lines.length > 1 && lines.every((l) => /^\s*[[{].*[\]}]\s*$/.test(l))) return 'ndjson';
  if (first === '{' || first === '[' || first === '"' || /^(-?\d|true\b|false\b|null\b)/.test(body)) return 'json';
  return 'toon';
}

/** What the format's own parser says is wrong with the text, and where. */
function failure(guess: Guess, text: string, decoders: { stc: Format; toon: Format }): { message: string; location: Location } {
  if (guess === 'stc' || guess === 'toon') {
    try {
      decoders[guess].decode(text);
    } catch (err) {
      if (err instanceof DevboyError) return { message: err.message.replace(/^invalid (STC|TOON): /, ''), location: err.location };
      return { message: (err as Error).message, location: {} };
    }
  }
  if (guess === 'ndjson') {
    const lines = text.split('\n');
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]!.replace(/\r$/, '');
      if (line.trim() === '' || isJsonLine(line)) continue;
      const { offset, message } = findJsonError(line);
      return { message, location: { line: i + 1, col: offset + 1 } };
    }
  }
  const { offset, message } = findJsonError(text);
  return { message, location: lineColAt(text, offset) };
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
