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
 * - as text, in any letter case, each character as itself or escaped the way a web stack escapes
 *   it (charForms): URL-encoded (once or twice, `+` for a space), HTML entities (named, decimal,
 *   hex), JSON and JavaScript escapes (`\u0041`, `\/`, `\x41`), in any mix;
 * - as bytes (UTF-8, UTF-16LE, UTF-16BE): hex, base64 and base64url, padded or not, and inside a
 *   longer base64 text at any of its three alignments (a Basic header, a JWT, a base64 blob holding
 *   the token, a .NET or PowerShell UTF-16 string).
 */
export function scrubSecrets(text: string, secrets: readonly (string | undefined)[]): string {
  const pattern = secretsPattern(secrets.filter((s): s is string => s !== undefined && s.length >= MIN_SECRET));
  return pattern ? text.replace(pattern, REDACTED) : text;
}

/**
 * The scrubbing pattern of each list of secrets, built once: it is long (every form of every
 * secret) and a run scrubs every recorded exchange and error line with the same one or two tokens.
 * Bounded: a process sees a handful of credential sets.
 */
const patterns = new Map<string, RegExp | null>();
const MAX_PATTERNS = 16;

function secretsPattern(secrets: readonly string[]): RegExp | null {
  const key = JSON.stringify(secrets);
  let pattern = patterns.get(key);
  if (pattern !== undefined) return pattern;
  const literals = new Set<string>();
  const texts: string[] = [];
  for (const secret of secrets) {
    for (const form of byteForms(secret)) literals.add(form);
    texts.push(textPattern(secret));
  }
  // Longest first, so a whole encoded form wins over the shorter core inside it; the text patterns
  // (every character in any of its escapes) after them.
  pattern =
    texts.length === 0
      ? null
      : new RegExp(
          [...[...literals].sort((a, b) => b.length - a.length).map(escapeRegExp), ...texts.sort((a, b) => b.length - a.length)].join('|'),
          'gi',
        );
  if (patterns.size >= MAX_PATTERNS) patterns.clear();
  patterns.set(key, pattern);
  return pattern;
}

/** Shortest base64 run worth scrubbing on its own: shorter ones could match unrelated text. */
const MIN_CORE = 8;

/** The encodings of the secret's bytes that are one literal text each: hex, base64, base64url. */
function byteForms(secret: string): string[] {
  const forms: string[] = [];
  const utf16le = Buffer.from(secret, 'utf16le');
  for (const bytes of [Buffer.from(secret), utf16le, Buffer.from(utf16le).swap16()]) {
    forms.push(bytes.toString('hex'));
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
  }
  return forms.filter((f) => f.length >= 4);
}

/** A pattern for the secret as text: each character in any of its forms (charPattern), one after another. */
function textPattern(secret: string): string {
  return [...secret].map(charPattern).join('');
}

const NAMED_ENTITIES: Readonly<Record<string, readonly string[]>> = {
  '&': ['&amp;'],
  '<': ['&lt;'],
  '>': ['&gt;'],
  '"': ['&quot;'],
  "'": ['&apos;'],
  '/': ['&sol;'],
  '=': ['&equals;'],
  '+': ['&plus;'],
  ' ': ['&nbsp;'],
};

/**
 * One character (a code point) as a web stack may write it, as a regular expression: itself; its
 * UTF-8 bytes percent-encoded, once or twice, or as `\x` escapes; its UTF-16 units as `\u`
 * escapes; a numeric HTML entity, decimal or hex, with or without leading zeros; a named entity; a
 * backslash before `/`, `"` and `\`; `+` for a space. Hex digits match in any case, as the whole
 * pattern does.
 */
function charPattern(char: string): string {
  const code = char.codePointAt(0)!;
  const utf8 = [...Buffer.from(char)].map((b) => b.toString(16).padStart(2, '0'));
  const units = Array.from({ length: char.length }, (_, i) => char.charCodeAt(i).toString(16).padStart(4, '0'));
  const literals = [
    char,
    utf8.map((h) => `%${h}`).join(''),
    utf8.map((h) => `%25${h}`).join(''),
    utf8.map((h) => `\\x${h}`).join(''),
    units.map((u) => `\\u${u}`).join(''),
    ...(NAMED_ENTITIES[char] ?? []),
    ...(char === ' ' ? ['+'] : []),
    ...(char === '/' || char === '"' || char === '\\' ? [`\\${char}`] : []),
  ];
  const entities = [`&#0*${code};`, `&#x0*${code.toString(16)};`];
  return `(?:${[...new Set(literals)].map(escapeRegExp).concat(entities).join('|')})`;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
