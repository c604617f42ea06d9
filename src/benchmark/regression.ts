import { DataError } from '../errors.js';
import { parseJson } from '../json/parse.js';
import { isJsonObject } from '../json/types.js';
import { BENCHMARK_SCHEMA, rowKey, type BenchmarkResult, type BenchmarkRow } from './schema.js';

export interface RegressionOptions {
  /** Largest tolerated growth of a token count, as a fraction (0.005 = 0.5%). */
  maxRegression: number;
  /** A median this many times slower than the baseline's is reported; timing never fails the gate. */
  timingFactor: number;
}

export const DEFAULT_REGRESSION: RegressionOptions = { maxRegression: 0.005, timingFactor: 3 };

export interface Regression {
  row: string;
  kind: 'tokens' | 'lossless' | 'missing';
  detail: string;
}

export interface RegressionReport {
  baseline: string;
  max_regression: number;
  compared: number;
  regressions: Regression[];
  /** Rows whose tokens shrank by more than the tolerance: worth updating the baseline for. */
  improved: number;
  /** Rows the baseline does not have. */
  new_rows: number;
  /** Baseline rows outside this run's providers, projects, kinds, levels, formats or tokenizers. */
  out_of_scope: number;
  timing_warnings: string[];
  passed: boolean;
}

/** Read a saved `--json` result; a file that is not one is a one-line data error. */
export function parseBaseline(text: string, file: string): BenchmarkResult {
  const doc = parseJson(text, file);
  if (!isJsonObject(doc) || doc.schema !== BENCHMARK_SCHEMA) {
    throw new DataError(`not a devboy benchmark result (expected "schema": "${BENCHMARK_SCHEMA}")`, { file });
  }
  if (!Array.isArray(doc.rows)) throw new DataError('benchmark result has no "rows" array', { file });
  doc.rows.forEach((r, i) => {
    if (!isJsonObject(r) || typeof r.tokens !== 'number' || typeof r.lossless !== 'boolean' || typeof r.format !== 'string') {
      throw new DataError(`row ${i} lacks tokens, lossless or format`, { file });
    }
  });
  return doc as unknown as BenchmarkResult;
}

/**
 * The CI gate: a token count that grew beyond the tolerance, a row that stopped round-tripping, or
 * a row that disappeared is a regression. Only baseline rows inside this run's scope are compared,
 * so a narrowed run (one project, some formats) can still be gated against the full baseline.
 */
export function compareWithBaseline(
  current: BenchmarkResult,
  baseline: BenchmarkResult,
  file: string,
  options: RegressionOptions = DEFAULT_REGRESSION,
): RegressionReport {
  const now = new Map(current.rows.map((r) => [rowKey(r), r]));
  const scope = scopeOf(current);
  const timingTokenizer = current.tokenizers[0]?.name;
  const regressions: Regression[] = [];
  const timing: string[] = [];
  let compared = 0;
  let improved = 0;
  let outOfScope = 0;
  const seen = new Set<string>();
  for (const old of baseline.rows) {
    const key = rowKey(old);
    if (!scope(old)) {
      outOfScope++;
      continue;
    }
    seen.add(key);
    const cur = now.get(key);
    if (!cur) {
      regressions.push({ row: key, kind: 'missing', detail: `row disappeared (baseline: ${old.tokens} tokens)` });
      continue;
    }
    compared++;
    const growth = old.tokens === 0 ? (cur.tokens > 0 ? Infinity : 0) : cur.tokens / old.tokens - 1;
    if (growth > options.maxRegression) {
      regressions.push({
        row: key,
        kind: 'tokens',
        detail: `${old.tokens} -> ${cur.tokens} tokens (+${(growth * 100).toFixed(2)}%, tolerance ${(options.maxRegression * 100).toFixed(2)}%)`,
      });
    } else if (growth < -options.maxRegression) {
      improved++;
    }
    if (old.lossless && !cur.lossless)
      regressions.push({ row: key, kind: 'lossless', detail: `no longer lossless: ${cur.lossless_reason ?? 'round trip failed'}` });
    // Timings are per encoding, the same under every tokenizer: compare them once.
    if (cur.tokenizer !== timingTokenizer) continue;
    for (const op of ['encode', 'decode'] as const) {
      const before = old[`${op}_ms`];
      const after = cur[`${op}_ms`];
      // Sub-millisecond medians are mostly noise on a shared CI machine.
      if (before >= 0.5 && after > before * options.timingFactor) timing.push(`${key}: ${op} ${before} -> ${after} ms`);
    }
  }
  const newRows = current.rows.filter((r) => !seen.has(rowKey(r))).length;
  return {
    baseline: file,
    max_regression: options.maxRegression,
    compared,
    regressions,
    improved,
    new_rows: newRows,
    out_of_scope: outOfScope,
    timing_warnings: timing,
    passed: regressions.length === 0,
  };
}

function scopeOf(current: BenchmarkResult): (r: BenchmarkRow) => boolean {
  const projects = new Set(current.datasets.map((d) => `${d.provider}|${d.project}`));
  const kinds = new Set(current.settings.dataset_kinds ?? current.datasets.map((d) => d.dataset));
  const levels = new Set<string>(current.settings.levels);
  const formats = new Set<string>(current.settings.formats);
  const tokenizers = new Set<string>(current.tokenizers.map((t) => t.name));
  return (r) =>
    projects.has(`${r.provider}|${r.project}`) &&
    kinds.has(r.dataset) &&
    levels.has(r.level) &&
    formats.has(r.format) &&
    tokenizers.has(r.tokenizer);
}
