/** Words and numbers of devboy's reports: counts agree with their nouns, integers carry separators. */

/** `4237` → `4,237`. */
export function int(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

/** `1 dataset`, `3,720 rows`, `2 boundaries`. */
export function plural(n: number, noun: string, pluralNoun = `${noun}s`): string {
  return `${int(n)} ${n === 1 ? noun : pluralNoun}`;
}

/**
 * A saving (a fraction of a baseline, negative when the output is larger) as words, because
 * "saving -5.5%" makes the reader undo a double negative: `5.5% fewer`, `5.5% more`.
 */
export function fewerOrMore(saving: number): string {
  if (saving === 0) return 'as many';
  const p = Math.abs(saving * 100).toFixed(1);
  return saving > 0 ? `${p}% fewer` : `${p}% more`;
}

/** A saving as a share of its baseline: 0.66 → `66.0%`. One a hair below zero (an id line over a session) is `0.0%`, not `-0.0%`. */
export function savedPct(f: number): string {
  const text = (f * 100).toFixed(1);
  return `${text === '-0.0' ? '0.0' : text}%`;
}
