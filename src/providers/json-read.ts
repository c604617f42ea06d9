import { isJsonObject, type JsonObject, type JsonValue } from '../json/types.js';

/** A response whose shape devboy cannot read; the caller adds which request it was. */
export class ShapeError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ShapeError';
  }
}

export function asObject(value: unknown, what: string): JsonObject {
  if (!isJsonObject(value)) throw new ShapeError(`expected ${what} to be a JSON object, got ${describe(value)}`);
  return value;
}

export function asArray(value: unknown, what: string): JsonValue[] {
  if (!Array.isArray(value)) throw new ShapeError(`expected ${what} to be a JSON array, got ${describe(value)}`);
  return value as JsonValue[];
}

export function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return value.trim().startsWith('<') ? 'HTML' : 'text that is not JSON';
  return typeof value === 'object' ? 'an object' : typeof value;
}

/** A string field, or undefined when absent, null or empty. */
export function optString(o: JsonObject | undefined, key: string): string | undefined {
  const v = o?.[key];
  if (typeof v === 'string') return v === '' ? undefined : v;
  if (typeof v === 'number') return String(v);
  return undefined;
}

export function reqString(o: JsonObject, key: string, what: string): string {
  const v = o[key];
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  throw new ShapeError(`${what} has no "${key}"`);
}

export function optNumber(o: JsonObject | undefined, key: string): number | undefined {
  const v = o?.[key];
  if (typeof v === 'number' && Number.isFinite(v)) return v;
  if (typeof v === 'string' && /^-?\d+$/.test(v)) return Number(v);
  return undefined;
}

export function optObject(o: JsonObject | undefined, key: string): JsonObject | undefined {
  const v = o?.[key];
  return isJsonObject(v) ? v : undefined;
}

export function optArray(o: JsonObject | undefined, key: string): JsonValue[] {
  const v = o?.[key];
  return Array.isArray(v) ? v : [];
}

export function bool(o: JsonObject | undefined, key: string): boolean {
  return o?.[key] === true;
}

/** Copy an object without undefined values, so optional fields are omitted rather than present-but-undefined. */
export function compact<T extends object>(value: T): T {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) if (v !== undefined) out[k] = v;
  return out as T;
}

/** Label names: GitHub and GitLab send strings, or objects with a `name` (GitLab with `with_labels_details=true`). */
export function labelNames(o: JsonObject): string[] {
  return optArray(o, 'labels')
    .map((l) => (typeof l === 'string' ? l : optString(l as JsonObject, 'name')))
    .filter((l): l is string => l !== undefined);
}
