import type { JsonValue } from './types.js';

/**
 * The round-trip law's notion of "unchanged": same values and same key order, as JSON sees them.
 * Comparing serializations gives exactly that (and treats -0 as 0, as JSON does).
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export type DifferenceKind = 'value' | 'type' | 'key-order' | 'missing-key' | 'extra-key' | 'length';

export interface Difference {
  /** JSONPath-like location, e.g. `$[3].labels[0].name`. */
  path: string;
  kind: DifferenceKind;
  expected: string;
  actual: string;
  /** For `key-order`: both key lists, whole (keys may contain commas, so not split from the strings). */
  keys?: { expected: string[]; actual: string[] };
}

/** The first place where `actual` departs from `expected`, or null when they are JSON-equal. */
export function firstDifference(expected: unknown, actual: unknown, path = '$'): Difference | null {
  if (jsonEqual(expected, actual)) return null;
  const te = kindOf(expected);
  const ta = kindOf(actual);
  if (te !== ta) return { path, kind: 'type', expected: preview(expected), actual: preview(actual) };
  if (te === 'array') {
    const ea = expected as JsonValue[];
    const aa = actual as JsonValue[];
    const n = Math.min(ea.length, aa.length);
    for (let i = 0; i < n; i++) {
      const d = firstDifference(ea[i], aa[i], `${path}[${i}]`);
      if (d) return d;
    }
    return { path, kind: 'length', expected: `${ea.length} elements`, actual: `${aa.length} elements` };
  }
  if (te === 'object') {
    const eo = expected as Record<string, unknown>;
    const ao = actual as Record<string, unknown>;
    const ek = Object.keys(eo);
    const ak = Object.keys(ao);
    for (const k of ek) {
      if (!Object.prototype.hasOwnProperty.call(ao, k))
        return { path: member(path, k), kind: 'missing-key', expected: preview(eo[k]), actual: '(absent)' };
    }
    for (const k of ak) {
      if (!Object.prototype.hasOwnProperty.call(eo, k))
        return { path: member(path, k), kind: 'extra-key', expected: '(absent)', actual: preview(ao[k]) };
    }
    for (const k of ek) {
      const d = firstDifference(eo[k], ao[k], member(path, k));
      if (d) return d;
    }
    return { path, kind: 'key-order', expected: ek.join(','), actual: ak.join(','), keys: { expected: ek, actual: ak } };
  }
  return { path, kind: 'value', expected: preview(expected), actual: preview(actual) };
}

/** One line a user can act on: what changed, and where. */
export function describeDifference(d: Difference): string {
  switch (d.kind) {
    case 'key-order': {
      // Two long lists that share a prefix read as identical once clipped: start both where they part.
      const expected = d.keys?.expected ?? d.expected.split(',');
      const actual = d.keys?.actual ?? d.actual.split(',');
      let i = 0;
      while (i < expected.length && expected[i] === actual[i]) i++;
      return `key order changed at ${d.path}, key ${i + 1}: expected ${keysFrom(expected, i)}; got ${keysFrom(actual, i)}`;
    }
    case 'missing-key':
      return `key lost at ${d.path} (was ${d.expected})`;
    case 'extra-key':
      return `key added at ${d.path} (${d.actual})`;
    case 'length':
      return `array length changed at ${d.path} (expected ${d.expected}; got ${d.actual})`;
    default:
      return `${d.kind === 'type' ? 'type' : 'value'} changed at ${d.path} (expected ${d.expected}; got ${d.actual})`;
  }
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

function member(path: string, key: string): string {
  return /^[A-Za-z_$][A-Za-z0-9_$]*$/.test(key) ? `${path}.${key}` : `${path}[${JSON.stringify(key)}]`;
}

function preview(v: unknown): string {
  if (v === undefined) return 'undefined';
  return clip(JSON.stringify(v) ?? String(v));
}

/** The keys from position `from` on, as many whole keys as fit in about 60 characters. */
function keysFrom(keys: string[], from: number, max = 60): string {
  let text = clip(keys[from] ?? '', max);
  let i = from + 1;
  for (; i < keys.length && text.length + 1 + keys[i]!.length <= max; i++) text += `,${keys[i]}`;
  return i < keys.length ? `${text},…` : text;
}

function clip(s: string, max = 60): string {
  return s.length > max ? `${s.slice(0, max - 1)}…` : s;
}
