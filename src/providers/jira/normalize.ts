import type { JsonObject, JsonValue } from '../../json/types.js';
import type { Comment, Issue, User } from '../../model/index.js';
import { readUser } from '../read-user.js';
import { asObject, compact, optArray, optObject, optString, reqString } from '../json-read.js';
import { adfToText, isAdf } from './adf.js';

/**
 * Jira payloads → devboy's model. Server/Data Center (REST v2) sends wiki markup, kept as it is;
 * Cloud (REST v3) sends Atlassian Document Format, turned into plain text.
 */

export function jiraUser(value: JsonValue | undefined): User | undefined {
  // Server identifies users by `key`/`name`; Cloud only by `accountId` (GDPR removed usernames).
  return readUser(value, {
    id: ['accountId', 'key', 'name'],
    username: ['name', 'key'],
    name: ['displayName'],
    email: ['emailAddress'],
    avatar: (u) => optString(optObject(u, 'avatarUrls'), '48x48'),
    identity: 'id',
  });
}

function text(value: JsonValue | undefined): string | undefined {
  if (value === undefined || value === null) return undefined;
  const out = isAdf(value) ? adfToText(value) : typeof value === 'string' ? value : undefined;
  return out === '' ? undefined : out;
}

/** `browseBase` is the site's public URL: issue links are `<browseBase>/browse/<KEY>`. */
export function jiraIssue(value: JsonValue, browseBase: string | undefined): Issue {
  const o = asObject(value, 'an issue');
  const key = reqString(o, 'key', 'an issue');
  const fields = optObject(o, 'fields') ?? ({} as JsonObject);
  const assignee = jiraUser(fields['assignee']);
  return compact<Issue>({
    key,
    title: optString(fields, 'summary') ?? '',
    description: text(fields['description']),
    state: optString(optObject(fields, 'status'), 'name') ?? 'unknown',
    source: 'jira',
    priority: optString(optObject(fields, 'priority'), 'name'),
    labels: optArray(fields, 'labels').filter((l): l is string => typeof l === 'string'),
    author: jiraUser(fields['reporter']) ?? jiraUser(fields['creator']),
    assignees: assignee ? [assignee] : [],
    url: browseBase ? `${browseBase.replace(/\/+$/, '')}/browse/${key}` : undefined,
    created_at: optString(fields, 'created'),
    updated_at: optString(fields, 'updated'),
  });
}

export function jiraComment(value: JsonValue): Comment {
  const o = asObject(value, 'a comment');
  return compact<Comment>({
    id: reqString(o, 'id', 'a comment'),
    body: text(o['body']) ?? '',
    author: jiraUser(o['author']),
    created_at: optString(o, 'created'),
    updated_at: optString(o, 'updated'),
  });
}
