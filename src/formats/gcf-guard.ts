import { DataError, lineColAt } from '../errors.js';

/**
 * What @blackwell-systems/gcf 2.5.2's decoder does to hostile text that devboy will not let pass:
 *
 * - It drops, without a word, a table column whose `>` path has a segment `__proto__`,
 *   `constructor` or `prototype` (its guard against prototype pollution), and its encoder writes
 *   such a column for an object-valued member of that name. The value would lose that column and
 *   still be "verified", so devboy refuses the text instead (unsafePathColumn).
 * - A path column of d segments makes d - 1 objects in every row: a 33 KB file with one 498-level
 *   column over its rows decoded into millions of objects (91 s, 3.9 GB). The decoded size is
 *   bounded against the input before decoding (amplification).
 */

/** Values a GCF text may decode to: 8 per input byte, at least this many. */
export const DECODED_VALUES_FLOOR = 250_000;
export const DECODED_VALUES_PER_BYTE = 8;

const UNSAFE = ['__proto__', 'constructor', 'prototype'] as const;

/** One character as GCF may write it in a quoted name: itself, or a \u escape (ASCII, any hex case). */
function spelled(c: string): string {
  const hex = c.charCodeAt(0).toString(16).padStart(4, '0');
  const esc = `\\\\u${[...hex].map((h) => (/[a-f]/.test(h) ? `[${h}${h.toUpperCase()}]` : h)).join('')}`;
  return `(?:${c.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}|${esc})`;
}
const SEP = spelled('>');
const WORD = `(?:${UNSAFE.map((w) => [...w].map(spelled).join('')).join('|')})`;
/**
 * A whole path segment that is an unsafe word: after `>` and before `>` or the closing quote, or
 * after the opening quote and before `>`. Path columns are always quoted (a bare name cannot hold
 * `>`), so the segment boundaries are `>` and `"`. A `\u` escape preceded by a backslash is text,
 * not an escape, and is not matched: the character before a match is `>` or `"`.
 */
const UNSAFE_SEGMENT = new RegExp(`(?<=${SEP})${WORD}(?=${SEP}|")|(?<=")${WORD}(?=${SEP})`, 'g');

/**
 * Whether `text` may hold a column the reference decoder drops: the places to check, in order.
 * Cheap when none of the words (or an escape that could spell one) is in the text.
 */
function unsafeSegments(text: string): RegExpMatchArray[] {
  // The full pattern costs a scan of every position; these cost a search for a literal. Spelled
  // literally, a segment touches a `>`; spelled with escapes, it holds an escaped letter, `_` or `>`
  // (which no encoder writes: GCF escapes only quotes, backslashes and control characters).
  const literal = (text.includes('proto') || text.includes('constructor')) && LITERAL_SEGMENT.test(text);
  if (!literal && !ESCAPED_NAME_CHARACTER.test(text)) return [];
  return [...text.matchAll(UNSAFE_SEGMENT)];
}
const LITERAL_SEGMENT = /(?:__proto__|constructor|prototype)>|>(?:__proto__|constructor|prototype)/;
const ESCAPED_NAME_CHARACTER = /\\u00(?:5[fF]|[67][0-9a-fA-F]|3[eE])/;

/**
 * Decode `text` with `decode` (the reference decoder), refusing what it would drop. When an unsafe
 * segment appears, the text is decoded a second time with each such segment renamed to a marker
 * that occurs nowhere in it: a column the decoder drops is then kept, under the marker. Only if the
 * marker comes back as a key did the first decoding lose a column; otherwise the words were data.
 */
export function decodeRefusingDroppedColumns<T>(text: string, decode: (text: string) => T): T {
  const matches = unsafeSegments(text);
  const value = decode(text);
  if (matches.length === 0) return value;
  let marker = 'devboySegment';
  for (let n = 0; text.includes(marker); n++) marker = `devboySegment${n}`;
  let renamed: unknown;
  try {
    renamed = decode(text.replace(UNSAFE_SEGMENT, marker));
  } catch {
    // Renaming a segment cannot make valid text invalid unless it was no name: refuse rather than guess.
    throw refusal(text, matches);
  }
  if (hasKey(renamed, marker)) throw refusal(text, matches);
  return value;
}

/** Whether a decoded value (Maps for objects, as decodeGeneric returns them) has `key` anywhere. Iterative. */
function hasKey(root: unknown, key: string): boolean {
  const stack = [root];
  while (stack.length > 0) {
    const v = stack.pop();
    if (v instanceof Map) {
      if (v.has(key)) return true;
      for (const x of v.values()) stack.push(x);
    } else if (Array.isArray(v)) for (const x of v as unknown[]) stack.push(x);
    else if (v !== null && typeof v === 'object') {
      if (Object.prototype.hasOwnProperty.call(v, key)) return true;
      for (const x of Object.values(v)) stack.push(x);
    }
  }
  return false;
}

/** The refusal, naming the first unsafe segment that sits in a field declaration (else the first) and its column. */
function refusal(text: string, matches: RegExpMatchArray[]): DataError {
  const named = matches.map((m) => ({ m, field: quotedFieldAround(text, m.index!) }));
  const first = named.find((x) => x.field?.declared) ?? named[0]!;
  const start = first.field?.start ?? first.m.index!;
  const name = first.field?.name ?? first.m[0];
  const word = UNSAFE.find((w) => name.split('>').includes(w)) ?? first.m[0];
  return new DataError(
    `GCF column ${JSON.stringify(name)} is a path through ${word}: the GCF reference decoder drops such a column (and its encoder writes one for an object-valued member of that name), so devboy refuses it rather than lose it`,
    lineColAt(text, start),
  );
}

/** The quoted name around `at`: where it starts, its text, and whether it sits in a `{...}` declaration. */
function quotedFieldAround(text: string, at: number): { start: number; name: string; declared: boolean } | undefined {
  const lineStart = text.lastIndexOf('\n', at) + 1;
  let open = -1;
  for (let i = at - 1; i >= lineStart; i--) {
    if (text[i] === '"' && text[i - 1] !== '\\') {
      open = i;
      break;
    }
  }
  if (open < 0) return undefined;
  let close = -1;
  for (let i = open + 1; i < text.length && text[i] !== '\n'; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') {
      close = i;
      break;
    }
  }
  if (close < 0) return undefined;
  const name = unquoted(text.slice(open, close + 1));
  const before = text.slice(lineStart, open).trimEnd();
  const declared = /[{,]$/.test(before) && /[\]^]\{/.test(before);
  return { start: open, name, declared };
}

/**
 * Refuse, before decoding, text that would decode to far more values than it has bytes. Every
 * value but the objects a `>` path makes needs a byte of input at least; a path makes, in every row
 * of its table, one object per distinct prefix. A row takes a line, so lines x the most path objects
 * any declaration makes a row bounds those (declarations: the `{...}` after a count's `]` or an
 * inline schema's `^`, to the closing brace or the end of the line).
 */
export function assertBoundedDecode(text: string): void {
  let most = 0;
  let mostAt = 0;
  const opening = /[\]^]\{/g;
  for (let m = opening.exec(text); m; m = opening.exec(text)) {
    const { end, objects } = pathObjectsOfDeclaration(text, m.index + 1);
    if (objects > most) {
      most = objects;
      mostAt = m.index + 1;
    }
    opening.lastIndex = end + 1;
  }
  if (most === 0) return;
  let lines = 1;
  for (let i = text.indexOf('\n'); i >= 0; i = text.indexOf('\n', i + 1)) lines++;
  // UTF-8 takes 1 to 3 bytes a UTF-16 unit: within the limit for any byte count, no need to count them.
  if (3 * text.length + lines * most <= Math.max(DECODED_VALUES_FLOOR, DECODED_VALUES_PER_BYTE * text.length)) return;
  const bytes = Buffer.byteLength(text);
  const values = bytes + lines * most;
  const limit = Math.max(DECODED_VALUES_FLOOR, DECODED_VALUES_PER_BYTE * bytes);
  if (values > limit) {
    const n = (x: number) => x.toLocaleString('en-US');
    throw new DataError(
      `GCF would decode to about ${n(values)} values from ${n(bytes)} bytes (${most} objects a row from ">" paths): more than devboy's limit of ${n(limit)} (${DECODED_VALUES_PER_BYTE} per input byte, at least ${n(DECODED_VALUES_FLOOR)})`,
      lineColAt(text, mostAt),
    );
  }
}

/** From a declaration's `{`: where it ends, and the distinct `>` path prefixes of its quoted names (objects a row). */
function pathObjectsOfDeclaration(text: string, open: number): { end: number; objects: number } {
  // The prefixes as a tree of segments, so a long path costs its length, not its length squared.
  const root: PrefixTree = new Map();
  let objects = 0;
  let i = open + 1;
  for (let c = text.charCodeAt(i); i < text.length && c !== NEWLINE && c !== CLOSE_BRACE; c = text.charCodeAt(++i)) {
    if (c !== QUOTE) continue;
    let j = i + 1;
    for (let d = text.charCodeAt(j); j < text.length && d !== QUOTE && d !== NEWLINE; d = text.charCodeAt(j)) j += d === BACKSLASH ? 2 : 1;
    const raw = text.slice(i, Math.min(j + 1, text.length));
    // A path needs a `>`, written or escaped.
    if (raw.includes('>') || raw.includes('\\')) objects += addPrefixes(root, unquoted(raw));
    i = j;
    if (text.charCodeAt(j) !== QUOTE) break;
  }
  return { end: i, objects };
}

type PrefixTree = Map<string, PrefixTree>;
const QUOTE = 0x22;
const NEWLINE = 0x0a;
const BACKSLASH = 0x5c;
const CLOSE_BRACE = 0x7d;

/** Adds the prefixes of a `>` path (all its segments but the last) to the tree; how many were new. */
function addPrefixes(root: PrefixTree, name: string): number {
  const segments = name.split('>');
  let added = 0;
  let node = root;
  for (let k = 0; k < segments.length - 1; k++) {
    let next = node.get(segments[k]!);
    if (!next) {
      node.set(segments[k]!, (next = new Map()));
      added++;
    }
    node = next;
  }
  return added;
}

/** A quoted GCF name's text (GCF's escapes are JSON's); the text between the quotes when it is not valid. */
function unquoted(raw: string): string {
  try {
    return JSON.parse(raw) as string;
  } catch {
    return raw.slice(1, -1);
  }
}
