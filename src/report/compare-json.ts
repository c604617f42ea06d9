import type { Comparison } from '../compare/compare.js';

/** `devboy compare --json`: schema devboy.compare/1 (docs/ci.md). */
export function compareJson(c: Comparison): string {
  return `${JSON.stringify(c, null, 2)}\n`;
}
