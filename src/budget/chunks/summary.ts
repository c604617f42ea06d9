import type { Comment, DatasetKind, Discussion, FileDiff, Issue, ItemList, MergeRequest } from '../../model/index.js';
import { diffLineCounts } from '../../trim/levels.js';

/** What the index calls the items of a kind ("diffs" → "files"). */
export function itemNoun(kind: DatasetKind | undefined, count: number): string {
  const one = count === 1;
  switch (kind) {
    case 'issues':
      return one ? 'issue' : 'issues';
    case 'merge_requests':
      return one ? 'merge request' : 'merge requests';
    case 'diffs':
      return one ? 'file' : 'files';
    case 'comments':
      return one ? 'comment' : 'comments';
    case 'discussions':
      return one ? 'thread' : 'threads';
    default:
      return one ? 'item' : 'items';
  }
}

/**
 * One line saying what a chunk holds, so an agent can choose which chunk to read: key ranges and
 * states for issues and merge requests, paths by directory with +/- for diffs, authors and dates for
 * comments, resolution for threads.
 */
export function chunkSummary(list: ItemList): string {
  if (list.items.length === 0) return '';
  switch (list.kind) {
    case 'issues':
    case 'merge_requests':
      return keysAndStates(list.items);
    case 'diffs':
      return pathsByDirectory(list.items);
    case 'comments':
      return authorsAndDates(list.items);
    case 'discussions':
      return threads(list.items);
  }
}

function keysAndStates(items: readonly (Issue | MergeRequest)[]): string {
  const keys = items.length === 1 ? items[0]!.key : `${items[0]!.key}…${items.at(-1)!.key}`;
  return `${keys}: ${tally(items.map((i) => i.state))}`;
}

function pathsByDirectory(diffs: readonly FileDiff[]): string {
  const groups = new Map<string, number>();
  let plus = 0;
  let minus = 0;
  for (const d of diffs) {
    const parts = d.file_path.split('/');
    const dir = parts.length > 2 ? `${parts.slice(0, 2).join('/')}/*` : parts.length === 2 ? `${parts[0]}/*` : d.file_path;
    groups.set(dir, (groups.get(dir) ?? 0) + 1);
    const { additions, deletions } = diffLineCounts(d);
    plus += additions;
    minus += deletions;
  }
  const shown = [...groups].slice(0, 3).map(([dir, n]) => (n === 1 && !dir.endsWith('*') ? dir : `${dir} (${n})`));
  const more = groups.size > 3 ? ` +${groups.size - 3} more` : '';
  return `${shown.join(', ')}${more}; +${plus}/-${minus}`;
}

function authorsAndDates(comments: readonly Comment[]): string {
  const authors = [...new Set(comments.map((c) => c.author?.username).filter((a): a is string => a !== undefined))];
  const who = authors.length === 0 ? '' : `by ${authors.slice(0, 3).join(', ')}${authors.length > 3 ? ` +${authors.length - 3}` : ''}`;
  const days = comments
    .map((c) => c.created_at?.slice(0, 10))
    .filter((d): d is string => d !== undefined)
    .sort();
  const when = days.length === 0 ? '' : days[0] === days.at(-1) ? days[0]! : `${days[0]}…${days.at(-1)}`;
  return [who, when].filter(Boolean).join(', ');
}

function threads(discussions: readonly Discussion[]): string {
  const open = discussions.filter((d) => !d.resolved).length;
  const comments = discussions.reduce((n, d) => n + d.comments.length, 0);
  const parts = [open > 0 ? `${open} unresolved` : '', open < discussions.length ? `${discussions.length - open} resolved` : ''].filter(
    Boolean,
  );
  return `${parts.join(', ')}; ${comments} comment${comments === 1 ? '' : 's'}`;
}

function tally(values: readonly string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts].map(([v, n]) => `${n} ${v}`).join(', ');
}
