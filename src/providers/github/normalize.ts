import type { JsonObject, JsonValue } from '../../json/types.js';
import type { CodePosition, Comment, DatasetKind, Discussion, FileDiff, Issue, MergeRequest, User } from '../../model/index.js';
import { lastLineOfHunk } from '../diff-hunk.js';
import { readUser } from '../read-user.js';
import { asObject, bool, compact, labelNames, optArray, optNumber, optObject, optString, reqString } from '../json-read.js';

/** GitHub REST payloads (v3 media type, as recorded since 2013) → devboy's model. */

export function githubUser(value: JsonValue | undefined): User | undefined {
  return readUser(value, {
    id: ['id'],
    username: ['login'],
    name: ['name'],
    email: ['email'],
    avatar: (u) => optString(u, 'avatar_url'),
    identity: 'username',
  });
}

function users(values: JsonValue[]): User[] {
  return values.map((v) => githubUser(v)).filter((u): u is User => u !== undefined);
}

/** Older payloads have only `assignee`; newer ones both (`assignees` includes `assignee`). */
function assigneesOf(o: JsonObject): User[] {
  const list = users(optArray(o, 'assignees'));
  if (list.length > 0 || 'assignees' in o) return list;
  const single = githubUser(o['assignee']);
  return single ? [single] : [];
}

/** The issues endpoints also list pull requests; those carry a `pull_request` key. */
export function isPullRequestItem(value: JsonValue): boolean {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && 'pull_request' in value;
}

/**
 * Whether a list from the issues or search API holds pull requests only (at least one): such a
 * list is measured as merge requests, not as an issues list with nothing left (a search with
 * `is:pr` would otherwise vanish).
 */
export function pullRequestsOnly(items: readonly JsonValue[]): boolean {
  return items.length > 0 && items.every(isPullRequestItem);
}

/**
 * What the pull requests of a mixed issues list are (merge requests, measured from the issue-shaped
 * items), as the client, the corpus plan and the dataset label name them.
 */
export const PULL_REQUESTS_ALONGSIDE = { kind: 'merge_requests', what: 'pull requests' } as const satisfies {
  kind: DatasetKind;
  what: string;
};

/**
 * Pull requests as the issues and search APIs give them (issue-shaped, with a `pull_request`
 * object) → merge requests. Those payloads carry no branches, reviewers or draft flag beyond
 * `draft`: branches are empty, as for any pull request GitHub did not send them for. Keys are
 * `pr#N`, or `owner/repo pr#N` when the list spans repositories (as pullRequestItemKeys names them).
 */
export function githubIssuePulls(raw: readonly JsonValue[]): MergeRequest[] {
  const qualify = new Set(raw.map(repositoryOf)).size > 1;
  return raw.map((value) => {
    const o = asObject(value, 'a pull request');
    const number = reqString(o, 'number', 'a pull request');
    const repo = qualify ? repositoryOf(value) : undefined;
    const merged = optString(optObject(o, 'pull_request'), 'merged_at') !== undefined;
    return compact<MergeRequest>({
      key: repo ? `${repo} pr#${number}` : `pr#${number}`,
      title: reqString(o, 'title', 'a pull request'),
      description: optString(o, 'body'),
      state: merged ? 'merged' : (optString(o, 'state') ?? 'open'),
      source: 'github',
      source_branch: '',
      target_branch: '',
      author: githubUser(o['user']),
      assignees: assigneesOf(o),
      reviewers: [],
      labels: labelNames(o),
      draft: bool(o, 'draft'),
      url: optString(o, 'html_url'),
      created_at: optString(o, 'created_at'),
      updated_at: optString(o, 'updated_at'),
    });
  });
}

/**
 * The keys of pull requests an issue list holds: `pr#N`, as githubPull gives them; in a list that spans
 * several repositories (a search) `owner/repo pr#N`, as issues are qualified there.
 */
export function pullRequestItemKeys(pulls: readonly JsonValue[], list: readonly JsonValue[]): string[] {
  const qualify = new Set(list.map(repositoryOf)).size > 1;
  return pulls.map((v) => {
    // Naming what was left out must never fail the read: a number GitHub did not send shows as `?`.
    const n = (v as { number?: unknown }).number;
    const key = `pr#${typeof n === 'number' || typeof n === 'string' ? n : '?'}`;
    const repo = qualify ? repositoryOf(v) : undefined;
    return repo ? `${repo} ${key}` : key;
  });
}

/**
 * A list of issues. Keys are `gh#N`, unless the list spans several repositories (a search across
 * repositories): then every key names its repository, `owner/repo#N`, so no two items share a key.
 */
export function githubIssues(raw: readonly JsonValue[]): Issue[] {
  const repos = new Set(raw.map(repositoryOf));
  const qualify = repos.size > 1;
  return raw.map((v) => githubIssue(v, qualify));
}

/** `owner/repo` from an issue's `repository_url` (https://api.github.com/repos/OWNER/REPO), if it has one. */
function repositoryOf(value: JsonValue): string | undefined {
  const url = value !== null && typeof value === 'object' && !Array.isArray(value) ? value['repository_url'] : undefined;
  return typeof url === 'string' ? /\/repos\/([^/]+\/[^/]+)\/?$/.exec(url)?.[1] : undefined;
}

export function githubIssue(value: JsonValue, qualify = false): Issue {
  const o = asObject(value, 'an issue');
  const number = reqString(o, 'number', 'an issue');
  const repo = qualify ? repositoryOf(value) : undefined;
  return compact<Issue>({
    key: repo ? `${repo}#${number}` : `gh#${number}`,
    title: reqString(o, 'title', 'an issue'),
    description: optString(o, 'body'),
    state: optString(o, 'state') ?? 'open',
    source: 'github',
    labels: labelNames(o),
    author: githubUser(o['user']),
    assignees: assigneesOf(o),
    url: optString(o, 'html_url'),
    created_at: optString(o, 'created_at'),
    updated_at: optString(o, 'updated_at'),
  });
}

export function githubPull(value: JsonValue): MergeRequest {
  const o = asObject(value, 'a pull request');
  const merged = optString(o, 'merged_at') !== undefined || o['merged'] === true;
  return compact<MergeRequest>({
    key: `pr#${reqString(o, 'number', 'a pull request')}`,
    title: reqString(o, 'title', 'a pull request'),
    description: optString(o, 'body'),
    state: merged ? 'merged' : (optString(o, 'state') ?? 'open'),
    source: 'github',
    source_branch: optString(optObject(o, 'head'), 'ref') ?? '',
    target_branch: optString(optObject(o, 'base'), 'ref') ?? '',
    author: githubUser(o['user']),
    assignees: assigneesOf(o),
    reviewers: users(optArray(o, 'requested_reviewers')),
    labels: labelNames(o),
    draft: bool(o, 'draft'),
    url: optString(o, 'html_url'),
    created_at: optString(o, 'created_at'),
    updated_at: optString(o, 'updated_at'),
  });
}

export function githubFile(value: JsonValue): FileDiff {
  const o = asObject(value, 'a pull request file');
  const status = optString(o, 'status') ?? 'modified';
  const previous = optString(o, 'previous_filename');
  return compact<FileDiff>({
    file_path: reqString(o, 'filename', 'a pull request file'),
    old_path: previous,
    new_file: status === 'added',
    deleted_file: status === 'removed',
    renamed_file: status === 'renamed',
    diff: optString(o, 'patch') ?? '',
    additions: optNumber(o, 'additions'),
    deletions: optNumber(o, 'deletions'),
  });
}

export function githubComment(value: JsonValue): Comment {
  const o = asObject(value, 'a comment');
  return compact<Comment>({
    id: reqString(o, 'id', 'a comment'),
    body: optString(o, 'body') ?? '',
    author: githubUser(o['user']),
    created_at: optString(o, 'created_at'),
    updated_at: optString(o, 'updated_at'),
  });
}

/** Where a review comment sits. `line` is current; outdated comments keep only `original_line`; the oldest only a diff hunk. */
export function reviewPosition(o: JsonObject): CodePosition | undefined {
  const path = optString(o, 'path');
  if (!path) return undefined;
  const fromHunk = lastLineOfHunk(optString(o, 'diff_hunk') ?? '');
  const line = optNumber(o, 'line');
  const originalLine = optNumber(o, 'original_line');
  const sideType = optString(o, 'side') === 'LEFT' ? 'old' : 'new';
  if (line !== undefined)
    return compact<CodePosition>({
      file_path: path,
      line,
      line_type: fromHunk?.line_type ?? sideType,
      commit_sha: optString(o, 'commit_id'),
    });
  const commit = optString(o, 'original_commit_id') ?? optString(o, 'commit_id');
  if (originalLine !== undefined)
    return compact<CodePosition>({ file_path: path, line: originalLine, line_type: fromHunk?.line_type ?? sideType, commit_sha: commit });
  if (fromHunk) return compact<CodePosition>({ file_path: path, line: fromHunk.line, line_type: fromHunk.line_type, commit_sha: commit });
  return undefined;
}

/**
 * Review comments → threads. A reply's `in_reply_to_id` names the thread's first comment; a reply
 * whose first comment is not in the list starts its own thread. Threads keep the order of their
 * first comments, comments their order in the response. The thread carries the position; its
 * comments do not repeat it.
 */
export function githubReviewThreads(values: JsonValue[]): Discussion[] {
  const threads = new Map<string, { root: JsonObject; comments: Comment[] }>();
  const threadOf = new Map<string, string>();
  for (const value of values) {
    const o = asObject(value, 'a review comment');
    const id = reqString(o, 'id', 'a review comment');
    const parent = optString(o, 'in_reply_to_id');
    const threadId = parent !== undefined ? threadOf.get(parent) : undefined;
    const thread = threadId !== undefined ? threads.get(threadId) : undefined;
    if (thread) {
      thread.comments.push(githubComment(o));
      threadOf.set(id, threadId!);
    } else {
      threads.set(id, { root: o, comments: [githubComment(o)] });
      threadOf.set(id, id);
    }
  }
  return [...threads.entries()].map(([id, t]) =>
    compact<Discussion>({ id, resolved: false, comments: t.comments, position: reviewPosition(t.root) }),
  );
}
