import { UsageError } from '../errors.js';
import { closest, otherSpelling } from './spelling.js';

/** Parse a comma-separated flag against the values it allows, in either spelling; order as given, deduplicated. */
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
  // json_compact for json-compact (and the other way round): one idea, either spelling.
  const named = [...new Set(items.map((item) => otherSpelling(item, allowed) ?? item))];
  for (const item of named) {
    if (!(allowed as readonly string[]).includes(item)) {
      const guess = closest(item, allowed);
      throw new UsageError(
        `--${flag}: unknown value '${item}'${guess ? `; did you mean ${guess}?` : ''} (expected: ${allowed.join(', ')})`,
      );
    }
  }
  return named as T[];
}
