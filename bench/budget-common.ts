import { existsSync } from 'node:fs';
import { EMBEDDED_CORPUS } from '../src/replay/embedded-corpus.js';

/** The recorded corpus: DEVBOY_CORPUS, else the embedded one. */
export function corpusPath(): string {
  const dir = process.env.DEVBOY_CORPUS || EMBEDDED_CORPUS;
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
