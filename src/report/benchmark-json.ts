import type { BenchmarkResult } from '../benchmark/schema.js';
import type { Comparison } from '../compare/compare.js';

/**
 * `--json`: the result as documented in docs/benchmark-schema.md (with --baseline, the comparison
 * as `regression`). One row per line, so a committed baseline diffs row by row and stays small in git.
 */
export function benchmarkJson(result: BenchmarkResult, comparison?: Comparison): string {
  return [...benchmarkJsonPieces(result, comparison)].join('');
}

/** Rows per piece of benchmarkJsonPieces: some hundred kilobytes. */
const ROWS_PER_PIECE = 256;

/** benchmarkJson's text in pieces of ROWS_PER_PIECE rows: ten times the public corpus is 40 MB of JSON. */
export function* benchmarkJsonPieces(result: BenchmarkResult, comparison?: Comparison): Generator<string> {
  const { rows, ...rest } = result;
  const head = JSON.stringify(comparison ? { ...rest, regression: comparison } : rest, null, 2);
  let piece = `${head.slice(0, -2)},\n  "rows": [\n`;
  for (let i = 0; i < rows.length; i += ROWS_PER_PIECE) {
    const some = rows.slice(i, i + ROWS_PER_PIECE).map((r) => `    ${JSON.stringify(r)}`);
    piece += `${i === 0 ? '' : ',\n'}${some.join(',\n')}`;
    yield piece;
    piece = '';
  }
  yield `${piece}\n  ]\n}\n`;
}
