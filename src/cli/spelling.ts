import { editDistance } from '../text/edit-distance.js';

/**
 * One name per idea, whichever spelling a user types: a value a flag allows spelled with `_` for
 * `-` or the other way round (`json_compact` for the format `json-compact`, `json-compact` for the
 * savings baseline `json_compact`) is read as the allowed one, with a note; a mistyped flag or value
 * is answered with the closest one.
 */

/** What a command's flag definitions say about a flag, as oclif keeps them. */
export interface FlagShape {
  name: string;
  char?: string | undefined;
  aliases?: string[] | undefined;
  options?: readonly string[] | undefined;
  type: string;
}

/** The other spelling of a value: `_` and `-` swapped. */
export function otherSpelling(value: string, allowed: readonly string[]): string | undefined {
  if (allowed.includes(value)) return undefined;
  for (const swapped of [value.replace(/_/g, '-'), value.replace(/-/g, '_')]) if (allowed.includes(swapped)) return swapped;
  return undefined;
}

/** argv with every value of an option flag in its allowed spelling, and a note for each one changed. */
export function respellArgv(argv: readonly string[], flags: Record<string, FlagShape>): { argv: string[]; notes: string[] } {
  const byName = new Map<string, FlagShape>();
  for (const f of Object.values(flags)) {
    byName.set(`--${f.name}`, f);
    for (const a of f.aliases ?? []) byName.set(`--${a}`, f);
    if (f.char) byName.set(`-${f.char}`, f);
  }
  const out = [...argv];
  const notes: string[] = [];
  for (let i = 0; i < out.length; i++) {
    const token = out[i]!;
    if (token === '--') break;
    const eq = token.startsWith('--') ? token.indexOf('=') : -1;
    const name = eq > 0 ? token.slice(0, eq) : token;
    const flag = byName.get(name);
    if (!flag?.options || flag.type !== 'option') continue;
    const at = eq > 0 ? i : i + 1;
    const value = eq > 0 ? token.slice(eq + 1) : out[at];
    if (value === undefined) continue;
    const fixed = otherSpelling(value, flag.options);
    if (fixed === undefined) continue;
    out[at] = eq > 0 ? `${name}=${fixed}` : fixed;
    notes.push(`${name} ${value} read as ${fixed}`);
    if (eq < 0) i++;
  }
  return { argv: out, notes };
}

/**
 * The word a mistyped one most likely meant: one a single edit away (`json_compact` is
 * `json-compact`, not the `json` it begins with), else the one it begins or that begins it, else one
 * within a third of its length in edits.
 */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  const w = word.toLowerCase();
  const distances = candidates.map((c) => ({ c, d: editDistance(w, c) }));
  const nearest = distances.reduce<{ c: string; d: number } | undefined>((best, x) => (!best || x.d < best.d ? x : best), undefined);
  if (nearest && nearest.d <= 1) return nearest.c;
  const prefixed = candidates.filter((c) => c.startsWith(w) || w.startsWith(c));
  if (prefixed.length === 1) return prefixed[0];
  return nearest && nearest.d <= Math.floor(nearest.c.length / 3) ? nearest.c : undefined;
}
