import { UsageError } from '../errors.js';

/** What `benchmark --list` honours: where the corpus is, the narrowing a run would apply, and JSON. */
export const LIST_FLAGS = ['list', 'corpus', 'provider', 'project', 'dataset', 'json'] as const;

/**
 * `benchmark --list` lists what the corpus holds and measures nothing, so a flag that reads live,
 * measures, compares or writes a report would be silently ignored: it is refused instead, every such
 * flag named once, in the order the command defines them. `given` are the flags the user set
 * (not those at their defaults); `defined` is the command's flag table.
 */
export function refuseFlagsWithList(given: readonly string[], defined: Record<string, { char?: string | undefined }>): void {
  const allowed = new Set<string>(LIST_FLAGS);
  const refused = Object.keys(defined).filter((name) => given.includes(name) && !allowed.has(name));
  if (refused.length === 0) return;
  const named = refused.map((name) => `--${name}${defined[name]?.char ? ` (-${defined[name]!.char})` : ''}`);
  const list = named.length === 1 ? named[0]! : `${named.slice(0, -1).join(', ')} and ${named[named.length - 1]!}`;
  const takes = LIST_FLAGS.filter((f) => f !== 'list').map((f) => `--${f}`);
  throw new UsageError(
    `--list lists what the corpus holds and measures nothing: ${list} ${refused.length === 1 ? 'does' : 'do'} not apply (--list takes ${takes.slice(0, -1).join(', ')} and ${takes[takes.length - 1]!})`,
  );
}
