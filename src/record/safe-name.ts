import { createHash } from 'node:crypto';
import { isAbsolute, relative, resolve, sep } from 'node:path';
import { DataError } from '../errors.js';

/** Room for any name on common file systems (255 bytes), with some to spare for what is added to it. */
export const MAX_NAME_BYTES = 120;

/**
 * A name taken from input (a project key, `owner/repo`, a URL slug) as one safe path component:
 * separators join the parts with `__` (as corpus folders name `owner__repo`), `.` and `..` parts
 * and empty ones are dropped, control characters (NUL included) become `_`, leading dots become `_`
 * (no hidden names, which the corpus reader skips), and an over-long name is cut to MAX_NAME_BYTES
 * with a hash of the whole, so that two long names differing only at the end stay apart.
 */
export function safePathComponent(name: string): string {
  const parts = name.split(/[/\\]+/).filter((part) => part !== '' && part !== '.' && part !== '..');
  // eslint-disable-next-line no-control-regex
  let safe = parts.join('__').replace(/[\u0000-\u001f\u007f]/g, '_');
  safe = safe.replace(/^\.+/, (dots) => '_'.repeat(dots.length)) || '_';
  if (Buffer.byteLength(safe) <= MAX_NAME_BYTES) return safe;
  const extension = /\.[A-Za-z0-9]{1,10}$/.exec(safe)?.[0] ?? '';
  const hash = `-${createHash('sha256').update(name).digest('hex').slice(0, 8)}`;
  return `${cutToBytes(safe.slice(0, safe.length - extension.length), MAX_NAME_BYTES - hash.length - extension.length)}${hash}${extension}`;
}

/** The longest start of `text` within `bytes` bytes of UTF-8, never splitting a character. */
function cutToBytes(text: string, bytes: number): string {
  let out = '';
  let used = 0;
  for (const char of text) {
    const size = Buffer.byteLength(char);
    if (used + size > bytes) break;
    out += char;
    used += size;
  }
  return out;
}

/** Fail unless `path` is inside `root` (the last guard before writing: names were made safe before). */
export function assertInside(root: string, path: string): void {
  const rel = relative(resolve(root), resolve(path));
  if (rel === '' || rel === '..' || rel.startsWith(`..${sep}`) || isAbsolute(rel)) {
    throw new DataError(`refusing to write outside the output folder: ${path}`, { file: root });
  }
}
