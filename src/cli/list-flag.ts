import { UsageError } from '../errors.js';

/** Parse a comma-separated flag against the values it allows; order and duplicates as given, deduplicated. */
export function parseList<T extends string>(flag: string, value: string, allowed: readonly T[]): T[] {
  const items = [
    ...new Set(
      value
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean),
    ),
  ];
  if (items.length === 0) throw new UsageError(`--${flag} needs at least one value (one of: ${allowed.join(', ')})`);
  for (const item of items) {
    if (!(allowed as readonly string[]).includes(item))
      throw new UsageError(`--${flag}: unknown value '${item}' (expected: ${allowed.join(', ')})`);
  }
  return items as T[];
}
