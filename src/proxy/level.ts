import { itemNoun } from '../budget/chunks/summary.js';
import type { JsonObject, JsonValue } from '../json/types.js';
import { readResponse } from '../providers/response.js';
import { DETAIL_LEVELS, itemsAtLevel, type DetailLevel } from '../trim/levels.js';

/** What `--level` lowers a list to: every detail level below full (the upstream's own detail, normalized). */
export type ProxyLevel = Exclude<DetailLevel, 'full'>;
export const PROXY_LEVELS: readonly ProxyLevel[] = DETAIL_LEVELS.filter((l): l is ProxyLevel => l !== 'full');

/** Items a lowered result does not hold although the upstream's did: how many, what they are, their keys. */
export interface LeftOut {
  items: number;
  what: string;
  keys: string[];
}

export interface Lowered {
  /** The result at the level: its list lowered, in the object it came in (the other members as sent), or its one item lowered. */
  value: JsonValue;
  /** What the lowered list holds, for the label: "49 GitHub issues", "12 discussions made from 30 GitHub review comments". */
  holds: string;
  /** The object member the list is in, when it is in one. */
  member: string | null;
  leftOut: LeftOut | null;
}

/**
 * A GitHub, GitLab or Jira result (as devboy normalizes them: `devboy format`'s reader) lowered to a
 * detail level: lossy by choice, so the caller labels it, and says what `leftOut` names. Only the list
 * changes: an envelope keeps its other members (a Jira search its `total`). Null for anything devboy
 * has no model of, and for a recorded exchange (a request and headers are no tool's result).
 */
export function lowerToLevel(value: JsonValue, level: ProxyLevel): Lowered | null {
  let read;
  try {
    read = readResponse(value, 'tool result');
  } catch {
    return null;
  }
  if (read.items.length === 0 || read.exchange) return null;
  const items = itemsAtLevel(read, level);
  const noun = itemNoun(read.kind, items.length);
  const holds = !read.rawAligned
    ? `${items.length} ${noun} made from ${read.raw.length} ${read.shape}`
    : items.length === 1
      ? `1 ${noun} (${read.shape})`
      : `${items.length} ${read.shape}`;
  const leftOut = read.dropped ? { items: read.dropped.keys.length, what: read.dropped.what, keys: read.dropped.keys } : null;
  if (read.single) return { value: items[0]!, holds, member: null, leftOut };
  return { value: replaceAt(value, read.path, items), holds, member: read.path.join('.') || null, leftOut };
}

/** `value` with the list at `path` replaced, every other member as it was, in its order. */
function replaceAt(value: JsonValue, path: readonly string[], list: JsonValue[]): JsonValue {
  if (path.length === 0) return list;
  const [head, ...rest] = path;
  const o = value as JsonObject;
  // fromEntries defines each member as its own (a `__proto__` member stays a member), in the given order.
  return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, k === head ? replaceAt(v, rest, list) : v]));
}
