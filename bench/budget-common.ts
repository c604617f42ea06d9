import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The recorded corpus: DEVBOY_CORPUS, else ../shared/corpus beside the repository (as the tests find it). */
export function corpusPath(): string {
  const root = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..');
  const dir = process.env.DEVBOY_CORPUS ?? resolve(root, '..', 'shared', 'corpus');
  if (!existsSync(dir)) throw new Error(`corpus not found at ${dir} (set DEVBOY_CORPUS)`);
  return dir;
}

/** Milliseconds of each call, repeated until about `budgetMs` have passed (at least 3 calls). */
export function timeIt(fn: () => unknown, budgetMs: number): number[] {
  const times: number[] = [];
  const start = performance.now();
  while (times.length < 3 || (performance.now() - start < budgetMs && times.length < 200)) {
    const t = performance.now();
    fn();
    times.push(performance.now() - t);
  }
  return times;
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
}
