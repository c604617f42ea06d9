import type { JsonObject, JsonValue } from '../../json/types.js';
import type { CodePosition, Comment, Discussion, FileDiff, Issue, MergeRequest, User } from '../../model/index.js';
import { readUser } from '../read-user.js';
import { asObject, bool, compact, labelNames, optArray, optNumber, optString, reqString } from '../json-read.js';

/**
 * GitLab payloads → devboy's model. Both body shapes occur in real recordings: API v4, and the
 * v3 shape of recordings made before 2017 (a single `assignee`, `work_in_progress`, no `draft`,
 * `reviewers` or `web_url`), sometimes under v4 URLs.
 */

export function gitlabUser(value: JsonValue | undefined): User | undefined {
  return readUser(value, {
    id: ['id'],
    username: ['username'],
    name: ['name'],
    email: ['email', 'public_email'],
    avatar: (u) => optString(u, 'avatar_url'),
    identity: 'username',
  });
}

function users(values: JsonValue[]): User[] {
  return values.map((v) => gitlabUser(v)).filter((u): u is User => u !== undefined);
}

function assigneesOf(o: JsonObject): User[] {
  if (Array.isArray(o['assignees'])) return users(o['assignees']);
  const single = gitlabUser(o['assignee']);
  return single ? [single] : [];
}

/** `opened` (v4) and `reopened` (v3) are the same state as GitHub's `open`. */
function stateOf(o: JsonObject): string {
  const state = optString(o, 'state') ?? 'opened';
  return state === 'opened' || state === 'reopened' ? 'open' : state;
}

export function gitlabIssue(value: JsonValue): Issue {
  const o = asObject(value, 'an issue');
  return compact<Issue>({
    key: `gitlab#${reqString(o, 'iid', 'an issue')}`,
    title: reqString(o, 'title', 'an issue'),
    description: optString(o, 'description'),
    state: stateOf(o),
    source: 'gitlab',
    labels: labelNames(o),
    author: gitlabUser(o['author']),
    assignees: assigneesOf(o),
    url: optString(o, 'web_url'),
    created_at: optString(o, 'created_at'),
    updated_at: optString(o, 'updated_at'),
  });
}

export function gitlabMergeRequest(value: JsonValue): MergeRequest {
  const o = asObject(value, 'a merge request');
  return compact<MergeRequest>({
    key: `mr#${reqString(o, 'iid', 'a merge request')}`,
    title: reqString(o, 'title', 'a merge request'),
    description: optString(o, 'description'),
    state: stateOf(o),
    source: 'gitlab',
    source_branch: optString(o, 'source_branch') ?? '',
    target_branch: optString(o, 'target_branch') ?? '',
    author: gitlabUser(o['author']),
    assignees: assigneesOf(o),
    reviewers: users(optArray(o, 'reviewers')),
    labels: labelNames(o),
    draft: 'draft' in o ? bool(o, 'draft') : bool(o, 'work_in_progress'),
    url: optString(o, 'web_url'),
    created_at: optString(o, 'created_at'),
    updated_at: optString(o, 'updated_at'),
  });
}

export function gitlabDiff(value: JsonValue): FileDiff {
  const o = asObject(value, 'a diff');
  const newPath = optString(o, 'new_path') ?? reqString(o, 'old_path', 'a diff');
  const oldPath = optString(o, 'old_path');
  const renamed = bool(o, 'renamed_file');
  return compact<FileDiff>({
    file_path: newPath,
    old_path: renamed && oldPath !== newPath ? oldPath : undefined,
    new_file: bool(o, 'new_file'),
    deleted_file: bool(o, 'deleted_file'),
    renamed_file: renamed,
    diff: optString(o, 'diff') ?? '',
  });
}

/** A note's anchor in a diff; image notes (no line) have none. */
export function gitlabPosition(value: JsonValue | undefined): CodePosition | undefined {
  const p = value && typeof value === 'object' && !Array.isArray(value) ? value : undefined;
  if (!p) return undefined;
  const newLine = optNumber(p, 'new_line');
  const oldLine = optNumber(p, 'old_line');
  const line = newLine ?? oldLine;
  const path = optString(p, 'new_path') ?? optString(p, 'old_path');
  if (line === undefined || !path) return undefined;
  const lineType = newLine !== undefined && oldLine !== undefined ? 'context' : newLine !== undefined ? 'new' : 'old';
  return compact<CodePosition>({ file_path: path, line, line_type: lineType, commit_sha: optString(p, 'head_sha') });
}

export function gitlabNote(value: JsonValue, withPosition = true): Comment {
  const o = asObject(value, 'a note');
  return compact<Comment>({
    id: reqString(o, 'id', 'a note'),
    body: optString(o, 'body') ?? '',
    author: gitlabUser(o['author']),
    created_at: optString(o, 'created_at'),
    updated_at: optString(o, 'updated_at'),
    position: withPosition ? gitlabPosition(o['position']) : undefined,
  });
}

/**
 * A discussion is resolved when it has resolvable notes and all of them are resolved; `resolved_by`
 * is whoever resolved the last of them. The discussion carries the position, its notes do not.
 */
export function gitlabDiscussion(value: JsonValue): Discussion {
  const o = asObject(value, 'a discussion');
  const notes = optArray(o, 'notes').map((n) => asObject(n, 'a discussion note'));
  const resolvable = notes.filter((n) => bool(n, 'resolvable'));
  const resolved = resolvable.length > 0 && resolvable.every((n) => bool(n, 'resolved'));
  const resolvedBy = resolved ? gitlabUser(resolvable.at(-1)!['resolved_by']) : undefined;
  return compact<Discussion>({
    id: reqString(o, 'id', 'a discussion'),
    resolved,
    resolved_by: resolvedBy,
    comments: notes.map((n) => gitlabNote(n, false)),
    position: gitlabPosition(notes[0]?.['position']),
  });
}

/** `/changes` wraps the diffs in the merge request: `{..., changes: [...]}`. */
export function changesOf(value: JsonValue): JsonValue[] {
  return optArray(asObject(value, 'a merge request with changes'), 'changes');
}
