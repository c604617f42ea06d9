import { memberSegment } from '../json/depth.js';
import { plural } from '../text/words.js';

/**
 * What a round trip lost, value by value: how many of the original's leaf values did not come back
 * with the same type and value at the same place, and the first few places with what happened. A
 * leaf is a string, number, boolean or null, or an empty list or object (which holds no leaf but is
 * a value of its own). A container that is dropped or changes type loses every leaf under it.
 * Key order and added keys lose no value but make the round trip lossy all the same; they are
 * listed too. Paths are generalized (every list index is `[]`) and start inside the items of a list,
 * so `labels[].name` names that field in every item.
 */
export interface LossReport {
  /** Leaf values of the original. */
  values: number;
  /** Of those, how many did not come back the same (type, value, place). */
  lost: number;
  /** lost / values, six decimals; 1 when nothing came back. */
  share: number;
  /** The first places in document order, one per path and kind of loss. */
  paths: LossPath[];
  /** Further places not listed in `paths`. */
  more_paths: number;
}

export interface LossPath {
  /** `user.login`, `labels[]`, `reactions["+1"]`; `(item)` is an item itself, `(root)` the whole value. */
  path: string;
  /** `type changed: number -> string`, `dropped: nested object`, `changed: string`, `key order`, `added: key`. */
  what: string;
  /** Leaf values lost at this path over the whole value (0 for key order and additions). */
  values: number;
}

/** How many places a report lists. */
export const LOSS_PATHS_SHOWN = 5;

/** The report of a round trip whose decoder rejected the text: nothing came back. */
export function unreadableLoss(original: unknown, reason: string): LossReport {
  const values = countLeaves(original);
  return { values, lost: values, share: 1, paths: [{ path: '(root)', what: `unreadable: ${reason}`, values }], more_paths: 0 };
}

/** Compare the original with what came back. Iterative: values may be deep. */
export function lossReport(original: unknown, decoded: unknown, shown = LOSS_PATHS_SHOWN): LossReport {
  const rootIsList = Array.isArray(original);
  const groups = new Map<string, LossPath>();
  const note = (path: string, what: string, values: number) => {
    const key = `${what}\u0000${path}`;
    const g = groups.get(key);
    if (g) g.values += values;
    else groups.set(key, { path: shownPath(path, rootIsList), what, values });
  };
  let values = 0;
  let lost = 0;
  const stack: { e: unknown; a: unknown; present: boolean; path: string }[] = [{ e: original, a: decoded, present: true, path: '' }];
  while (stack.length > 0) {
    const { e, a, present, path } = stack.pop()!;
    const ke = kindOf(e);
    const leaves = isLeaf(e) ? 1 : -1;
    if (!present || kindOf(a) !== ke) {
      const n = leaves === 1 ? 1 : countLeaves(e);
      values += n;
      lost += n;
      note(path, present ? `type changed: ${ke} -> ${kindOf(a)}` : `dropped: ${containerWord(e)}`, n);
      continue;
    }
    if (leaves === 1) {
      values++;
      if (!sameLeaf(e, a)) {
        lost++;
        note(path, `changed: ${ke}`, 1);
      }
      continue;
    }
    const work: typeof stack = [];
    if (Array.isArray(e)) {
      const aa = a as unknown[];
      for (let i = 0; i < e.length; i++) work.push({ e: e[i], a: aa[i], present: i < aa.length, path: `${path}[]` });
      if (aa.length > e.length) note(`${path}[]`, 'added: list element', 0);
    } else {
      const eo = e as Record<string, unknown>;
      const ao = a as Record<string, unknown>;
      const ek = Object.keys(eo);
      for (const k of ek) {
        const has = Object.prototype.hasOwnProperty.call(ao, k);
        work.push({ e: eo[k], a: has ? ao[k] : undefined, present: has, path: path + memberSegment(k) });
      }
      const ak = Object.keys(ao);
      const added = ak.filter((k) => !Object.prototype.hasOwnProperty.call(eo, k));
      for (const k of added) note(path + memberSegment(k), 'added: key', 0);
      const common = ak.filter((k) => Object.prototype.hasOwnProperty.call(eo, k));
      const expected = ek.filter((k) => Object.prototype.hasOwnProperty.call(ao, k));
      if (common.some((k, i) => k !== expected[i])) note(path, 'key order', 0);
    }
    // Depth-first in document order: the first child on top.
    for (let i = work.length - 1; i >= 0; i--) stack.push(work[i]!);
  }
  const all = [...groups.values()];
  return {
    values,
    lost,
    share: values === 0 ? (all.length ? 1 : 0) : Math.round((lost / values) * 1e6) / 1e6,
    paths: all.slice(0, shown),
    more_paths: Math.max(0, all.length - shown),
  };
}

/**
 * `41.2% of 1,234 values lost or changed (labels[]: type changed: list -> string, ...)`; a round trip
 * that lost no value yet is not lossless says what changed instead:
 * `none of 4 values lost or changed, key order only ((item): key order)`.
 */
export function lossSummary(loss: LossReport, paths = 3): string {
  const listed = loss.paths
    .slice(0, paths)
    .map((p) => `${p.path}: ${p.what}`)
    .join('; ');
  const more = loss.paths.length + loss.more_paths - Math.min(paths, loss.paths.length);
  const values = plural(loss.values, 'value');
  const head =
    loss.lost === 0 && loss.values > 0
      ? `none of ${values} lost or changed, ${changedOnly(loss.paths)} only`
      : `${lostPercent(loss.lost, loss.values, loss.share)} of ${values} lost or changed`;
  return `${head}${listed ? ` (${listed}${more > 0 ? `; ${more} more` : ''})` : ''}`;
}

/**
 * A share of values lost as a percentage, one decimal: `41.2%`. A loss too small to show at one
 * decimal is `<0.1%`, never a `0.0%` that reads as nothing lost (1 value of 20,000); likewise
 * `>99.9%` short of all. `share` is the recorded one when there is (over nothing at all it is 1).
 */
export function lostPercent(lost: number, values: number, share = values === 0 ? 0 : lost / values): string {
  if (lost > 0 && share < 0.0005) return '<0.1%';
  if (lost < values && share >= 0.9995) return '>99.9%';
  return `${(share * 100).toFixed(1)}%`;
}

/**
 * What a round trip changed that is no value (the places a report lists with 0 values lost): `key
 * order`, `added keys`, `key order and added keys`. What a loss without lost values is, in words.
 */
export function changedOnly(paths: readonly Pick<LossPath, 'what' | 'values'>[]): string {
  const kinds = [...new Set(paths.filter((p) => p.values === 0).map((p) => p.what.replace(/^added: (.*)$/, 'added $1s')))];
  if (kinds.length === 0) return 'what changes no value';
  return kinds.length === 1 ? kinds[0]! : `${kinds.slice(0, -1).join(', ')} and ${kinds.at(-1)!}`;
}

type Kind = 'null' | 'string' | 'number' | 'boolean' | 'list' | 'object';

function kindOf(v: unknown): Kind {
  if (v === null || v === undefined) return 'null';
  if (Array.isArray(v)) return 'list';
  const t = typeof v;
  return t === 'string' || t === 'number' || t === 'boolean' ? t : 'object';
}

function isLeaf(v: unknown): boolean {
  if (Array.isArray(v)) return v.length === 0;
  if (v !== null && typeof v === 'object') return Object.keys(v).length === 0;
  return true;
}

function sameLeaf(e: unknown, a: unknown): boolean {
  // Numbers by value (-0 equals 0, as in JSON); empty containers are equal once their kinds are.
  return e === a || (typeof e === 'object' && e !== null) || (Number.isNaN(e) && Number.isNaN(a));
}

function containerWord(v: unknown): string {
  if (Array.isArray(v)) return v.length === 0 ? 'empty list' : 'nested list';
  if (v !== null && typeof v === 'object') return Object.keys(v).length === 0 ? 'empty object' : 'nested object';
  return kindOf(v);
}

/** Leaves under a value (iteratively). */
function countLeaves(v: unknown): number {
  let n = 0;
  const stack: unknown[] = [v];
  while (stack.length > 0) {
    const x = stack.pop();
    if (isLeaf(x)) n++;
    else if (Array.isArray(x)) for (const y of x) stack.push(y);
    else for (const y of Object.values(x as object)) stack.push(y);
  }
  return n;
}

/** Inside a list's items, and named when empty. */
function shownPath(path: string, rootIsList: boolean): string {
  if (rootIsList) {
    const inner = path.replace(/^\[\]\.?/, '');
    return inner === '' ? (path === '' ? '(root)' : '(item)') : inner;
  }
  return path === '' ? '(root)' : path.replace(/^\./, '');
}
