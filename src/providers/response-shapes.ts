import { isJsonObject, type JsonObject, type JsonValue } from '../json/types.js';
import type { DatasetKind, ModelItem, ProviderName } from './types.js';
import { githubComment, githubFile, githubIssue, githubPull, githubReviewThreads } from './github/normalize.js';
import { gitlabDiff, gitlabDiscussion, gitlabIssue, gitlabMergeRequest, gitlabNote } from './gitlab/normalize.js';
import { jiraComment, jiraIssue } from './jira/normalize.js';

/** A kind of list item devboy recognises by its fields, and how it becomes model items. */
export interface ItemShape {
  name: string;
  provider: ProviderName | 'devboy';
  kind: DatasetKind;
  test(o: JsonObject): boolean;
  /** The whole list → model items; `aligned` says whether item i comes from raw[i]. */
  normalize(raw: JsonValue[]): ModelItem[];
  aligned: boolean;
}

const has = (o: JsonObject, ...keys: string[]) => keys.every((k) => k in o);
const str = (o: JsonObject, k: string) => typeof o[k] === 'string';
const each =
  <T extends ModelItem>(f: (v: JsonValue) => T) =>
  (raw: JsonValue[]) =>
    raw.map(f);
const SOURCES = new Set(['github', 'gitlab', 'jira']);

/**
 * Most specific first: devboy's own items (string ids, `source`), then provider payloads by the
 * fields only they have (GitHub `user`/`head`/`filename`/`diff_hunk`, GitLab `iid`/`noteable_type`/
 * `new_path`/`individual_note`, Jira `fields`/`created`).
 */
export const ITEM_SHAPES: readonly ItemShape[] = [
  {
    name: 'devboy merge requests',
    provider: 'devboy',
    kind: 'merge_requests',
    aligned: true,
    normalize: (r) => r as unknown as ModelItem[],
    test: (o) => str(o, 'key') && str(o, 'source_branch') && SOURCES.has(o['source'] as string) && Array.isArray(o['reviewers']),
  },
  {
    name: 'devboy issues',
    provider: 'devboy',
    kind: 'issues',
    aligned: true,
    normalize: (r) => r as unknown as ModelItem[],
    test: (o) => str(o, 'key') && str(o, 'title') && SOURCES.has(o['source'] as string) && Array.isArray(o['assignees']),
  },
  {
    name: 'devboy file diffs',
    provider: 'devboy',
    kind: 'diffs',
    aligned: true,
    normalize: (r) => r as unknown as ModelItem[],
    test: (o) => str(o, 'file_path') && str(o, 'diff') && typeof o['new_file'] === 'boolean',
  },
  {
    name: 'devboy discussions',
    provider: 'devboy',
    kind: 'discussions',
    aligned: true,
    normalize: (r) => r as unknown as ModelItem[],
    test: (o) => str(o, 'id') && typeof o['resolved'] === 'boolean' && Array.isArray(o['comments']),
  },
  {
    name: 'devboy comments',
    provider: 'devboy',
    kind: 'comments',
    aligned: true,
    normalize: (r) => r as unknown as ModelItem[],
    test: (o) => str(o, 'id') && str(o, 'body') && !has(o, 'user') && !has(o, 'noteable_type') && !has(o, 'comments') && !has(o, 'created'),
  },
  {
    name: 'GitHub pull requests',
    provider: 'github',
    kind: 'merge_requests',
    aligned: true,
    normalize: each(githubPull),
    test: (o) => has(o, 'number', 'head', 'base'),
  },
  {
    name: 'GitHub issues',
    provider: 'github',
    kind: 'issues',
    aligned: true,
    normalize: each(githubIssue),
    test: (o) => has(o, 'number', 'title') && (has(o, 'user') || has(o, 'html_url')),
  },
  {
    name: 'GitHub pull request files',
    provider: 'github',
    kind: 'diffs',
    aligned: true,
    normalize: each(githubFile),
    test: (o) => str(o, 'filename') && (has(o, 'status') || has(o, 'sha')),
  },
  {
    name: 'GitHub review comments',
    provider: 'github',
    kind: 'discussions',
    aligned: false,
    normalize: githubReviewThreads,
    test: (o) => has(o, 'diff_hunk', 'path', 'id'),
  },
  {
    name: 'GitHub issue comments',
    provider: 'github',
    kind: 'comments',
    aligned: true,
    normalize: each(githubComment),
    test: (o) => has(o, 'id', 'body', 'user'),
  },
  {
    name: 'GitLab merge requests',
    provider: 'gitlab',
    kind: 'merge_requests',
    aligned: true,
    normalize: each(gitlabMergeRequest),
    test: (o) => has(o, 'iid', 'source_branch'),
  },
  {
    name: 'GitLab issues',
    provider: 'gitlab',
    kind: 'issues',
    aligned: true,
    normalize: each(gitlabIssue),
    test: (o) => has(o, 'iid', 'title'),
  },
  {
    name: 'GitLab diffs',
    provider: 'gitlab',
    kind: 'diffs',
    aligned: true,
    normalize: each(gitlabDiff),
    test: (o) => (has(o, 'new_path') || has(o, 'old_path')) && has(o, 'diff'),
  },
  {
    name: 'GitLab discussions',
    provider: 'gitlab',
    kind: 'discussions',
    aligned: true,
    normalize: each(gitlabDiscussion),
    test: (o) => has(o, 'id', 'notes') && Array.isArray(o['notes']),
  },
  {
    name: 'GitLab notes',
    provider: 'gitlab',
    kind: 'comments',
    aligned: true,
    normalize: each((v) => gitlabNote(v)),
    test: (o) => has(o, 'id', 'body', 'noteable_type'),
  },
  {
    name: 'Jira comments',
    provider: 'jira',
    kind: 'comments',
    aligned: true,
    normalize: each(jiraComment),
    test: (o) => has(o, 'id', 'body', 'created') && !has(o, 'fields'),
  },
];

/** Jira issues need the site for their links, which only a recorded URL tells. */
export function jiraIssueShape(browseBase: string | undefined): ItemShape {
  return {
    name: 'Jira issues',
    provider: 'jira',
    kind: 'issues',
    aligned: true,
    normalize: (raw) => raw.map((v) => jiraIssue(v, browseBase)),
    test: (o) => str(o, 'key') && isJsonObject(o['fields']),
  };
}

/** The shape all items of a list share, or where the first one that differs is. */
export function shapeOfList(
  list: readonly JsonValue[],
  browseBase: string | undefined,
  kind?: DatasetKind,
): { shape?: ItemShape; mismatch?: number } {
  const shapes = [...ITEM_SHAPES, jiraIssueShape(browseBase)].filter((s) => kind === undefined || s.kind === kind);
  const first = list[0];
  if (!isJsonObject(first)) return { mismatch: 0 };
  const shape = shapes.find((s) => s.test(first));
  if (!shape) return { mismatch: 0 };
  const bad = list.findIndex((v) => !isJsonObject(v) || !shape.test(v));
  return bad >= 0 ? { shape, mismatch: bad } : { shape };
}
