import { memberSegment } from './depth.js';

/**
 * A lone surrogate is a UTF-16 code unit (U+D800 to U+DFFF) without its partner. JSON can write one
 * as an escape (`"\ud800"`) and JavaScript strings can hold one, but UTF-8 cannot encode it: a format
 * that writes strings as literal UTF-8 text (TOON, GCF) would turn it into U+FFFD.
 */

export interface LoneSurrogate {
  /** Where in the value: `$.a`, `$[2]` (a key's own path when the key holds it). */
  path: string;
  /** The code unit as a JSON escape, e.g. `\ud800`. */
  escape: string;
}

/** The first string or key in `value` (depth first, in key order) holding a lone surrogate, or null. Iterative. */
export function firstLoneSurrogate(value: unknown): LoneSurrogate | null {
  const stack: { v: unknown; path: string }[] = [{ v: value, path: '$' }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      const unit = loneUnit(v);
      if (unit !== null) return { path, escape: escapeOf(unit) };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: `${path}[${i}]` });
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--) {
        const k = keys[i]!;
        const at = path + memberSegment(k);
        const unit = loneUnit(k);
        // The key comes before its value; pushed last, it is looked at first.
        stack.push({ v: (v as Record<string, unknown>)[k], path: at });
        if (unit !== null) stack.push({ v: k, path: `${at} (the key)` });
      }
    }
  }
  return null;
}

/**
 * Offset of the first lone surrogate written in a JSON-syntax text (JSON, NDJSON, STC): an escape
 * `\uD8xx` not followed by a low-surrogate escape, a low-surrogate escape without a high one before
 * it, or a raw lone code unit. -1 when there is none.
 */
export function findLoneSurrogateInText(text: string): number {
  const n = text.length;
  let inString = false;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdfff) {
      const paired = c <= 0xdbff ? isLow(text.charCodeAt(i + 1)) : false;
      if (!paired) return i;
      i++;
      continue;
    }
    if (c === 0x22) inString = !inString;
    else if (c === 0x5c && inString) {
      if (text.charCodeAt(i + 1) !== 0x75) {
        i++;
        continue;
      }
      const unit = parseInt(text.slice(i + 2, i + 6), 16);
      if (unit >= 0xd800 && unit <= 0xdbff) {
        const next = text.slice(i + 6, i + 8) === '\\u' ? parseInt(text.slice(i + 8, i + 12), 16) : NaN;
        if (!isLow(next)) return i;
        i += 11;
      } else if (unit >= 0xdc00 && unit <= 0xdfff) {
        return i;
      } else {
        i += 5;
      }
    }
  }
  return -1;
}

/**
 * True when `s` has no lone surrogate, so its UTF-8 encoding decodes back to itself. Node 20 has the
 * native String.prototype.isWellFormed; the ES2023 type library does not declare it yet.
 */
export function isWellFormed(s: string): boolean {
  return (s as unknown as { isWellFormed(): boolean }).isWellFormed();
}

function loneUnit(s: string): number | null {
  if (isWellFormed(s)) return null;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && isLow(s.charCodeAt(i + 1))) i++;
    else if (c >= 0xd800 && c <= 0xdfff) return c;
  }
  return null;
}

function isLow(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function escapeOf(unit: number): string {
  return `\\u${unit.toString(16).padStart(4, '0')}`;
}
