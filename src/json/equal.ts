/**
 * The round-trip law's notion of "unchanged": same types, same values and same key order. Numbers
 * compare by value (so -0 equals 0, as in JSON); Infinity and NaN, which JSON cannot write, equal
 * only themselves (JSON.stringify would have called them null). Iterative: safe at any depth.
 */
export function jsonEqual(a: unknown, b: unknown): boolean {
  const stack: unknown[] = [a, b];
  while (stack.length > 0) {
    const y = stack.pop();
    const x = stack.pop();
    if (x === y) continue;
    if (typeof x !== typeof y || x === null || y === null || typeof x !== 'object') {
      if (typeof x === 'number' && Number.isNaN(x) && Number.isNaN(y)) continue;
      return false;
    }
    const xa = Array.isArray(x);
    if (xa !== Array.isArray(y)) return false;
    if (xa) {
      const ya = y as unknown[];
      if (x.length !== ya.length) return false;
      for (let i = 0; i < x.length; i++) stack.push(x[i], ya[i]);
    } else {
      const xo = x as Record<string, unknown>;
      const yo = y as Record<string, unknown>;
      const xk = Object.keys(xo);
      const yk = Object.keys(yo);
      if (xk.length !== yk.length) return false;
      for (let i = 0; i < xk.length; i++) {
        const k = xk[i]!;
        if (k !== yk[i]) return false;
        stack.push(xo[k], yo[k]);
      }
    }
  }
  return true;
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
  /**
   * For two long strings: the character (code point, from 1) where they part. `expected` and
   * `actual` then show each string around it rather than from its start, which both share.
   */
  character?: number;
}

interface Visit {
  expected: unknown;
  actual: unknown;
  /** Index of the parent visit in `trail`, -1 at the root. */
  parent: number;
  segment: string;
}

/**
 * The first place where `actual` departs from `expected`, or null when they are JSON-equal. At each
 * container: a changed type first; then, for arrays, the first differing element, else the length;
 * for objects, a lost key, an added key, the first differing value, else the key order. Depth-first
 * with an explicit stack, so it is safe at any depth; paths are built only for the difference found.
 */
export function firstDifference(expected: unknown, actual: unknown, path = '$'): Difference | null {
  const trail: Visit[] = [];
  // Work items: a pair to compare, or a container to finish once its children are equal.
  const work: Array<{ visit: Visit } | { finish: number }> = [{ visit: { expected, actual, parent: -1, segment: path } }];
  const pathOf = (index: number, extra = ''): string => {
    const segments = [extra];
    for (let i = index; i >= 0; i = trail[i]!.parent) segments.push(trail[i]!.segment);
    return segments.reverse().join('');
  };
  while (work.length > 0) {
    const item = work.pop()!;
    if ('finish' in item) {
      const d = finish(trail[item.finish]!, () => pathOf(item.finish));
      if (d) return d;
      continue;
    }
    const v = item.visit;
    const e = v.expected;
    const a = v.actual;
    if (e === a) continue;
    const te = kindOf(e);
    const ta = kindOf(a);
    const at = trail.push(v) - 1;
    if (te !== ta) return { path: pathOf(at), kind: 'type', expected: preview(e), actual: preview(a) };
    if (te === 'array') {
      const ea = e as unknown[];
      const aa = a as unknown[];
      work.push({ finish: at });
      for (let i = Math.min(ea.length, aa.length) - 1; i >= 0; i--) {
        work.push({ visit: { expected: ea[i], actual: aa[i], parent: at, segment: `[${i}]` } });
      }
    } else if (te === 'object') {
      const eo = e as Record<string, unknown>;
      const ao = a as Record<string, unknown>;
      const ek = Object.keys(eo);
      const ak = Object.keys(ao);
      for (const k of ek) {
        if (!Object.prototype.hasOwnProperty.call(ao, k))
          return { path: pathOf(at, member('', k)), kind: 'missing-key', expected: preview(eo[k]), actual: '(absent)' };
      }
      for (const k of ak) {
        if (!Object.prototype.hasOwnProperty.call(eo, k))
          return { path: pathOf(at, member('', k)), kind: 'extra-key', expected: '(absent)', actual: preview(ao[k]) };
      }
      work.push({ finish: at });
      for (let i = ek.length - 1; i >= 0; i--) {
        const k = ek[i]!;
        work.push({ visit: { expected: eo[k], actual: ao[k], parent: at, segment: member('', k) } });
      }
    } else if (!jsonEqual(e, a)) {
      if (typeof e === 'string' && typeof a === 'string') return { path: pathOf(at), kind: 'value', ...stringsPart(e, a) };
      return { path: pathOf(at), kind: 'value', expected: preview(e), actual: preview(a) };
    }
  }
  return null;
}

/** After a container's children compared equal: what is left to differ is its length or its key order. */
function finish(v: Visit, path: () => string): Difference | null {
  if (Array.isArray(v.expected)) {
    const ea = v.expected;
    const aa = v.actual as unknown[];
    return ea.length === aa.length
      ? null
      : { path: path(), kind: 'length', expected: `${ea.length} elements`, actual: `${aa.length} elements` };
  }
  const ek = Object.keys(v.expected as object);
  const ak = Object.keys(v.actual as object);
  if (ek.every((k, i) => k === ak[i])) return null;
  return { path: path(), kind: 'key-order', expected: ek.join(','), actual: ak.join(','), keys: { expected: ek, actual: ak } };
}

/** One line a user can act on: what changed, and where (a very deep path shortened in the middle). */
export function describeDifference(difference: Difference): string {
  const d = { ...difference, path: clipMiddle(difference.path) };
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
      return `${d.kind === 'type' ? 'type' : 'value'} changed at ${d.path}${d.character ? `, character ${d.character}` : ''} (expected ${d.expected}; got ${d.actual})`;
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
  if (typeof v === 'number' && !Number.isFinite(v)) return String(v);
  try {
    return clip(JSON.stringify(v) ?? String(v));
  } catch {
    // Too deep for JSON.stringify's recursion: say what it is instead.
    return Array.isArray(v) ? `[… ${v.length} elements]` : `{… ${Object.keys(v as object).length} keys}`;
  }
}

/** Characters shown before and from the place where two long strings part. */
const BEFORE = 20;
const FROM = 40;

/**
 * Two different strings as a reader can tell them apart: whole when both previews fit, else each
 * from a little before the first character where they part to a little after, with that
 * character's number. Cuts fall between code points, so a surrogate pair is never split, and each
 * part is JSON-escaped after it is cut, so an escape is never split either.
 */
function stringsPart(e: string, a: string): Pick<Difference, 'expected' | 'actual' | 'character'> {
  const whole = { expected: preview(e), actual: preview(a) };
  if (!whole.expected.endsWith('…') && !whole.actual.endsWith('…')) return whole;
  let at = 0;
  while (at < e.length && at < a.length && e.charCodeAt(at) === a.charCodeAt(at)) at++;
  // Both strings share the high surrogate when only the low one differs: part before the pair.
  if (at > 0 && isHighSurrogate(e.charCodeAt(at - 1))) at--;
  let start = at;
  for (let n = 0; n < BEFORE && start > 0; n++)
    start -= start > 1 && isLowSurrogate(e.charCodeAt(start - 1)) && isHighSurrogate(e.charCodeAt(start - 2)) ? 2 : 1;
  let character = 1;
  for (let i = 0; i < at; i++) if (!(isLowSurrogate(e.charCodeAt(i)) && i > 0 && isHighSurrogate(e.charCodeAt(i - 1)))) character++;
  const around = (s: string) => {
    let end = at;
    for (let n = 0; n < FROM && end < s.length; n++)
      end += isHighSurrogate(s.charCodeAt(end)) && isLowSurrogate(s.charCodeAt(end + 1)) ? 2 : 1;
    return `${start > 0 ? '…' : ''}${JSON.stringify(s.slice(start, end))}${end < s.length ? '…' : ''}`;
  };
  return { expected: around(e), actual: around(a), character };
}

function isHighSurrogate(c: number): boolean {
  return c >= 0xd800 && c <= 0xdbff;
}

function isLowSurrogate(c: number): boolean {
  return c >= 0xdc00 && c <= 0xdfff;
}

function clipMiddle(s: string, max = 160): string {
  return s.length > max ? `${s.slice(0, 60)}…${s.slice(-(max - 61))}` : s;
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
