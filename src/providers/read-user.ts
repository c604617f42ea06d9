import { isJsonObject, type JsonObject, type JsonValue } from '../json/types.js';
import type { User } from '../model/index.js';
import { compact, optString } from './json-read.js';

/** Where a provider keeps a user's fields; for each, the first key present wins. */
export interface UserFields {
  id: readonly string[];
  username: readonly string[];
  name: readonly string[];
  email: readonly string[];
  avatar: (user: JsonObject) => string | undefined;
  /** What a user cannot lack: GitHub and GitLab name users by username; Jira Cloud has only an id. */
  identity: 'username' | 'id';
}

/** A provider's user object as devboy's `User`; undefined when it is not one (null, or no identity). */
export function readUser(value: JsonValue | undefined, fields: UserFields): User | undefined {
  if (!isJsonObject(value)) return undefined;
  const first = (keys: readonly string[]) => keys.map((k) => optString(value, k)).find((v) => v !== undefined);
  const username = first(fields.username);
  const id = first(fields.id) ?? username;
  if (id === undefined || (fields.identity === 'username' && username === undefined)) return undefined;
  return compact<User>({
    id,
    username: username ?? id,
    name: first(fields.name),
    email: first(fields.email),
    avatar_url: fields.avatar(value),
  });
}
