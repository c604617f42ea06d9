import type { BenchmarkResult } from '../benchmark/schema.js';
import type { Comparison } from '../compare/compare.js';

/**
 * `--json`: the result as documented in docs/benchmark-schema.md (with --baseline, the comparison
 * as `regression`). One row per line, so a committed baseline diffs row by row and stays small in git.
 */
export function benchmarkJson(result: BenchmarkResult, comparison?: Comparison): string {
  const { rows, ...rest } = result;
  const head = JSON.stringify(comparison ? { ...rest, regression: comparison } : rest, null, 2);
  const body = rows.map((r) => `    ${JSON.stringify(r)}`).join(',\n');
  return `${head.slice(0, -2)},\n  "rows": [\n${body}\n  ]\n}\n`;
}
