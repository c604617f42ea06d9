/**
 * Rules shared by the STC encoder and decoder (docs/formats/stc.md, sections 3 and 4).
 * Both sides import these so that "what may be unquoted" and "how deep is too deep" cannot drift apart.
 */

import type { JsonPrimitive } from '../../src/json/types.js';

/** Containers (objects, lists, scalar arrays, tables, table rows) one value may nest (spec section 5). */
export const MAX_DEPTH = 1000;

/** Canonical separators (spec section 4): no whitespace except around the row slash. */
export const ROW_SEPARATOR = ' / ';

/** True when `key` matches ^[A-Za-z_][A-Za-z0-9_]*$ and so is written without quotes. */
export function isIdentifier(key: string): boolean {
  const n = key.length;
  if (n === 0 || !isIdentStart(key.charCodeAt(0))) return false;
  for (let i = 1; i < n; i++) {
    if (!isIdentPart(key.charCodeAt(i))) return false;
  }
  return true;
}

export function isIdentStart(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a) || c === 0x5f;
}

export function isIdentPart(c: number): boolean {
  return isIdentStart(c) || (c >= 0x30 && c <= 0x39);
}

/** K(k) of the spec: the identifier itself, or the key as a JSON string. */
export function keyText(key: string): string {
  return isIdentifier(key) ? key : JSON.stringify(key);
}

/** JSON scalars only: undefined, functions, symbols and bigints are not JSON values and are not scalars. */
export function isScalar(value: unknown): value is JsonPrimitive {
  if (value === null) return true;
  const t = typeof value;
  return t === 'string' || t === 'number' || t === 'boolean';
}

/** Sets a member so that `__proto__` becomes an own property instead of replacing the prototype. */
export function setMember(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') {
    Object.defineProperty(target, key, { value, writable: true, enumerable: true, configurable: true });
  } else {
    target[key] = value;
  }
}

export function depthMessage(): string {
  return `nesting deeper than ${MAX_DEPTH} levels`;
}
