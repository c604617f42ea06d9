import { memberSegment } from '../json/depth.js';

/**
 * The first number JSON cannot write (Infinity, -Infinity, NaN) in a decoded value, with its path;
 * null when there is none. YAML writes them `.inf` and `.nan`, and a parser that guesses types may
 * read them from text: a value holding one has no JSON meaning, so its reader refuses it.
 * Iterative: the value may be deep.
 */
export function nonFiniteNumber(value: unknown): { value: string; path: string } | null {
  const stack: { v: unknown; path: string }[] = [{ v: value, path: '$' }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) return { value: String(v), path };
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push({ v: v[i], path: `${path}[${i}]` });
    } else if (v !== null && typeof v === 'object') {
      const keys = Object.keys(v);
      for (let i = keys.length - 1; i >= 0; i--)
        stack.push({ v: (v as Record<string, unknown>)[keys[i]!], path: path + memberSegment(keys[i]!) });
    }
  }
  return null;
}
