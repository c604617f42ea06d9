import type { JsonValue } from '../json/types.js';
import { readResponse } from '../providers/response.js';
import { DETAIL_LEVELS, itemsAtLevel, type DetailLevel } from '../trim/levels.js';

/** What `--level` lowers a list to: every detail level below full (the upstream's own detail, normalized). */
export type ProxyLevel = Exclude<DetailLevel, 'full'>;
export const PROXY_LEVELS: readonly ProxyLevel[] = DETAIL_LEVELS.filter((l): l is ProxyLevel => l !== 'full');

/**
 * A GitHub, GitLab or Jira list (as devboy normalizes them: `devboy format`'s reader) lowered to a detail
 * level: lossy by choice, so the caller labels it. Null for anything devboy has no model of.
 */
export function trimToLevel(value: JsonValue, level: ProxyLevel): { items: JsonValue[]; shape: string } | null {
  let read;
  try {
    read = readResponse(value, 'tool result');
  } catch {
    return null;
  }
  if (read.items.length === 0) return null;
  return { items: itemsAtLevel(read, level), shape: read.shape };
}
