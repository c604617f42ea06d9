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

/** Replace every occurrence of each secret (and its URL- and base64-encoded forms) in a text. */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  let out = text;
  for (const secret of secrets) {
    if (!secret || secret.length < 4) continue;
    for (const form of new Set([secret, encodeURIComponent(secret), Buffer.from(secret).toString('base64')])) {
      out = out.split(form).join(REDACTED);
    }
  }
  return out;
}
