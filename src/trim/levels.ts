import type { JsonObject, JsonValue } from '../json/types.js';
import {
  itemsOf,
  kindedItems,
  type CodePosition,
  type Comment,
  type Dataset,
  type Discussion,
  type FileDiff,
  type Issue,
  type ItemList,
  type KindedItem,
  type MergeRequest,
  type User,
} from '../model/index.js';

/**
 * Levels of detail, from what a naive tool returns to the least an agent can act on.
 * `raw` is the provider's own JSON; the others are views of the normalized model.
 * Field lists for issues and merge requests follow devboy-tools; diffs, comments and
 * discussions had none there and are devboy's (docs/levels.md says why).
 */
export const LEVELS = ['raw', 'full', 'standard', 'minimal'] as const;
export type Level = (typeof LEVELS)[number];
export type DetailLevel = Exclude<Level, 'raw'>;
/** The levels of the normalized model, from the most detail to the least. */
export const DETAIL_LEVELS: readonly DetailLevel[] = LEVELS.filter((l): l is DetailLevel => l !== 'raw');
/** The last entry of a list that has one, typed as that entry: a level added at the end is the new least detail. */
type Last<T extends readonly unknown[]> = T extends readonly [...unknown[], infer L] ? L : never;
/** The least detail: what every item of a budgeted response keeps at least (`devboy format`). */
export const LEAST_DETAIL = LEVELS[LEVELS.length - 1] as Last<typeof LEVELS>;
export type UpgradeLevel = Exclude<DetailLevel, typeof LEAST_DETAIL>;
/** The levels an item of a budgeted response can be raised to, from the least detail to the most. */
export const UPGRADE_LEVELS: readonly UpgradeLevel[] = DETAIL_LEVELS.filter((l): l is UpgradeLevel => l !== LEAST_DETAIL).reverse();
/** A count per detail level, as a budgeted response reports what it kept. */
export function perDetailLevel(value: number): Record<DetailLevel, number> {
  return Object.fromEntries(DETAIL_LEVELS.map((l) => [l, value])) as Record<DetailLevel, number>;
}

/** Items of a dataset at a level, ready to encode. */
export function datasetAtLevel(dataset: Dataset, level: Level): JsonValue[] {
  if (level === 'raw') return dataset.raw;
  return itemsAtLevel(itemsOf(dataset), level);
}

export function itemsAtLevel(list: ItemList, level: DetailLevel): JsonObject[] {
  return kindedItems(list).map((entry) => itemAtLevel(entry, level));
}

export function itemAtLevel(entry: KindedItem, level: DetailLevel): JsonObject {
  // Model items are JSON objects by construction (normalizers build them from JSON).
  if (level === 'full') return entry.item as unknown as JsonObject;
  switch (entry.kind) {
    case 'issues':
      return issueAt(entry.item, level);
    case 'merge_requests':
      return mergeRequestAt(entry.item, level);
    case 'diffs':
      return diffAt(entry.item, level);
    case 'comments':
      return commentAt(entry.item, level);
    case 'discussions':
      return discussionAt(entry.item, level);
  }
}

function issueAt(i: Issue, level: 'standard' | 'minimal'): JsonObject {
  if (level === 'minimal') return { key: i.key, title: i.title, state: i.state };
  return compact({
    key: i.key,
    title: i.title,
    state: i.state,
    source: i.source,
    priority: i.priority,
    labels: i.labels.length > 0 ? i.labels : undefined,
    description: i.description,
    author: i.author?.username,
    url: i.url,
  });
}

function mergeRequestAt(m: MergeRequest, level: 'standard' | 'minimal'): JsonObject {
  if (level === 'minimal')
    return { key: m.key, title: m.title, state: m.state, source_branch: m.source_branch, target_branch: m.target_branch };
  return compact({
    key: m.key,
    title: m.title,
    state: m.state,
    source: m.source,
    source_branch: m.source_branch,
    target_branch: m.target_branch,
    draft: m.draft,
    labels: m.labels,
    description: m.description,
    author: m.author?.username,
    url: m.url,
  });
}

/** One word for the three booleans: what an agent asks first about a changed file. */
export function diffStatus(d: FileDiff): 'added' | 'deleted' | 'renamed' | 'modified' {
  if (d.new_file) return 'added';
  if (d.deleted_file) return 'deleted';
  if (d.renamed_file) return 'renamed';
  return 'modified';
}

/** Added and removed lines: the provider's counts, else counted from the patch (GitLab sends none). */
export function diffLineCounts(d: FileDiff): { additions: number; deletions: number } {
  if (d.additions !== undefined && d.deletions !== undefined) return { additions: d.additions, deletions: d.deletions };
  let additions = 0;
  let deletions = 0;
  // `---`/`+++` are file headers only before a file's first hunk; inside a hunk they are removed or
  // added lines whose content starts with `--` or `++`.
  let inHunk = false;
  for (const line of d.diff.split('\n')) {
    if (line.startsWith('@@')) inHunk = true;
    else if (line.startsWith('diff ')) inHunk = false;
    else if (line.startsWith('+') && (inHunk || !line.startsWith('+++'))) additions++;
    else if (line.startsWith('-') && (inHunk || !line.startsWith('---'))) deletions++;
  }
  return { additions: d.additions ?? additions, deletions: d.deletions ?? deletions };
}

function diffAt(d: FileDiff, level: 'standard' | 'minimal'): JsonObject {
  const status = diffStatus(d);
  const { additions, deletions } = diffLineCounts(d);
  if (level === 'minimal') return { file_path: d.file_path, status, additions, deletions };
  return compact({
    file_path: d.file_path,
    old_path: status === 'renamed' ? d.old_path : undefined,
    status,
    additions,
    deletions,
    diff: d.diff,
  });
}

/** `path:line`: how a reader cites a place in code. */
export function positionText(p: CodePosition | undefined): string | undefined {
  return p ? `${p.file_path}:${p.line}` : undefined;
}

const EXCERPT_CHARS = 100;

/** The first non-empty line of a text, cut at EXCERPT_CHARS with a visible ellipsis. */
export function excerpt(text: string): string {
  const first =
    text
      .split('\n')
      .find((l) => l.trim() !== '')
      ?.trim() ?? '';
  return first.length > EXCERPT_CHARS ? `${first.slice(0, EXCERPT_CHARS - 1)}…` : first;
}

function username(u: User | undefined): string | undefined {
  return u?.username;
}

function commentAt(c: Comment, level: 'standard' | 'minimal'): JsonObject {
  if (level === 'minimal') return compact({ id: c.id, author: username(c.author), excerpt: excerpt(c.body) });
  return compact({ id: c.id, author: username(c.author), created_at: c.created_at, position: positionText(c.position), body: c.body });
}

function discussionAt(d: Discussion, level: 'standard' | 'minimal'): JsonObject {
  const position = positionText(d.position ?? d.comments[0]?.position);
  if (level === 'minimal') {
    const first = d.comments[0];
    return compact({
      id: d.id,
      resolved: d.resolved,
      position,
      comments: d.comments.length,
      first: first ? `${username(first.author) ?? '?'}: ${excerpt(first.body)}` : undefined,
    });
  }
  return compact({
    id: d.id,
    resolved: d.resolved,
    position,
    comments: d.comments.map((c) => compact({ id: c.id, author: username(c.author), created_at: c.created_at, body: c.body })),
  });
}

/** Drop absent fields so encodings never see `undefined`. */
function compact(o: Record<string, JsonValue | undefined>): JsonObject {
  const out: JsonObject = {};
  for (const [k, v] of Object.entries(o)) if (v !== undefined) out[k] = v;
  return out;
}
