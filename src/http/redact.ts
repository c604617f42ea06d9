/**
 * Secrets must never reach output, errors, logs or recordings. Recordings keep only headers on an
 * allow-list (a deny-list would let the next vendor's novel auth header through), URLs lose
 * credential query parameters, and any text can be scrubbed of known secret values as a last guard.
 */

const RECORDED_HEADERS = new Set([
  'content-type',
  'date',
  'etag',
  'last-modified',
  'link',
  'retry-after',
  'x-total',
  'x-total-pages',
  'x-next-page',
  'x-page',
  'x-per-page',
  'x-prev-page',
  'x-ratelimit-limit',
  'x-ratelimit-remaining',
  'x-ratelimit-reset',
  'x-ratelimit-used',
  'x-ratelimit-resource',
  'ratelimit-limit',
  'ratelimit-remaining',
  'ratelimit-reset',
  'x-github-media-type',
]);

const SECRET_QUERY_PARAMS = new Set([
  'access_token',
  'private_token',
  'job_token',
  'token',
  'client_secret',
  'client_id',
  'jwt',
  'api_key',
  'apikey',
]);

export const REDACTED = '[REDACTED]';

/**
 * The shortest secret scrubbed from free text, and so the shortest token devboy accepts
 * (providers/credentials.ts): a shorter one cannot be told apart from the words around it (a token
 * `t` would turn every `t` of an error line into the marker). Every real API token is far longer:
 * GitHub's 40 characters and more, GitLab's 26, Jira's 24.
 */
export const MIN_SECRET = 8;

/** Response headers worth keeping in a recording, lower-cased; everything else (cookies, auth echoes, tracing) is dropped. */
export function recordableHeaders(headers: Headers | Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {};
  const entries = headers instanceof Headers ? [...headers.entries()] : Object.entries(headers);
  for (const [name, value] of entries.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    const key = name.toLowerCase();
    if (RECORDED_HEADERS.has(key)) out[key] = value;
  }
  return out;
}

/** The URL without credential query parameters (GitLab and GitHub both accept tokens in the query). */
export function redactUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url;
  }
  let changed = false;
  if (parsed.username || parsed.password) {
    parsed.username = '';
    parsed.password = '';
    changed = true;
  }
  for (const key of [...parsed.searchParams.keys()]) {
    if (SECRET_QUERY_PARAMS.has(key.toLowerCase())) {
      parsed.searchParams.set(key, REDACTED);
      changed = true;
    }
  }
  // Unchanged URLs are returned as given: URL serialization would re-encode the query.
  return changed ? parsed.toString() : url;
}

/**
 * Replace every occurrence of each secret (of MIN_SECRET characters or more) in a text, in the forms a server or library may echo it:
 * as is and in any letter case; URL-encoded (once or twice, as a component or a form value);
 * JSON-escaped; base64 and base64url, padded or not, and inside a longer base64 text at any of
 * its three alignments (a Basic header, a JWT, a base64 blob holding the token).
 */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (!secret || secret.length < MIN_SECRET) continue;
    for (const form of secretForms(secret)) forms.add(form);
  }
  if (forms.size === 0) return text;
  // Longest first, so a whole encoded form wins over the shorter core inside it.
  const pattern = [...forms]
    .sort((a, b) => b.length - a.length)
    .map((f) => f.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('|');
  return text.replace(new RegExp(pattern, 'gi'), REDACTED);
}

/** Shortest base64 run worth scrubbing on its own: shorter ones could match unrelated text. */
const MIN_CORE = 8;

function secretForms(secret: string): string[] {
  const component = encodeURIComponent(secret);
  const forms = [
    secret,
    component,
    encodeURIComponent(component),
    new URLSearchParams({ s: secret }).toString().slice(2),
    JSON.stringify(secret).slice(1, -1),
    JSON.stringify(secret).slice(1, -1).replace(/\//g, '\\/'),
  ];
  const bytes = Buffer.from(secret);
  for (const alphabet of ['base64', 'base64url'] as const) {
    const unpadded = bytes.toString(alphabet).replace(/=+$/, '');
    forms.push(unpadded, unpadded.padEnd(Math.ceil(unpadded.length / 4) * 4, '='));
    // Preceded by 0, 1 or 2 other bytes, the secret's bits start at a different place in each
    // 4-character group: keep only the characters made of the secret's bits alone.
    for (const shift of [0, 1, 2]) {
      const encoded = Buffer.concat([Buffer.alloc(shift), bytes]).toString(alphabet);
      const start = [0, 2, 3][shift]!;
      const end = Math.floor((8 * (shift + bytes.length)) / 6);
      const core = encoded.slice(start, end);
      if (core.length >= MIN_CORE) forms.push(core);
    }
  }
  return forms.filter((f) => f.length >= 4);
}
