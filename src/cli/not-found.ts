import { editDistance } from '../text/edit-distance.js';
/**
 * What devboy says about a word that is not one of its commands, wherever oclif finds it
 * (`devboy bench`, `devboy help bench`, `devboy bench --help`): one line, and a suggestion only
 * when one command is plainly meant.
 */
export function notFoundMessage(word: string, commandIds: string[]): string {
  if (word.startsWith('-')) return `unknown flag ${word}; flags go after a command (devboy help COMMAND lists them)`;
  const ids = [...commandIds].sort();
  const guess = closestCommand(word, ids);
  return guess
    ? `${word} is not a devboy command; did you mean ${guess}?`
    : `${word} is not a devboy command; the commands are ${ids.join(', ')}`;
}

/**
 * The command a mistyped word most likely meant: one it begins (`bench`), else one within a couple
 * of edits (`convrt`, `recrod`). Nothing for words far from all of them, as a wrong guess costs more
 * than none.
 */
export function closestCommand(word: string, ids: string[]): string | undefined {
  const w = word.toLowerCase();
  if (w.length >= 2) {
    const prefixed = ids.filter((id) => id.startsWith(w));
    if (prefixed.length === 1) return prefixed[0];
  }
  let best: { id: string; distance: number } | undefined;
  for (const id of ids) {
    const distance = editDistance(w, id);
    if (distance <= Math.max(1, Math.floor(id.length / 3)) && (!best || distance < best.distance)) best = { id, distance };
  }
  return best?.id;
}
