import { DataError } from '../errors.js';
import { parseJson } from '../json/parse.js';
import { isJsonObject } from '../json/types.js';
import { readInput } from '../io/read-input.js';
import { BENCHMARK_SCHEMA, type BenchmarkResult } from './schema.js';

/**
 * Read a saved result (`--json`, `--export-json`, `devboy merge`); a file that is not one is a
 * one-line data error naming the file, before any work is done with it.
 */
export function parseBenchmarkResult(text: string, file: string): BenchmarkResult {
  const doc = parseJson(text, file);
  if (!isJsonObject(doc) || doc.schema !== BENCHMARK_SCHEMA) {
    throw new DataError(`not a devboy benchmark result (expected "schema": "${BENCHMARK_SCHEMA}")`, { file });
  }
  if (!Array.isArray(doc.rows)) throw new DataError('benchmark result has no "rows" array', { file });
  for (const key of ['settings', 'source'] as const)
    if (!isJsonObject(doc[key])) throw new DataError(`benchmark result has no "${key}" object`, { file });
  for (const key of ['tokenizers', 'formats', 'datasets'] as const)
    if (!Array.isArray(doc[key])) throw new DataError(`benchmark result has no "${key}" array`, { file });
  doc.rows.forEach((r, i) => {
    if (
      !isJsonObject(r) ||
      typeof r.tokens !== 'number' ||
      typeof r.lossless !== 'boolean' ||
      typeof r.format !== 'string' ||
      typeof r.tokenizer !== 'string' ||
      typeof r.level !== 'string'
    ) {
      throw new DataError(`row ${i} lacks tokens, lossless, format, level or tokenizer`, { file });
    }
  });
  return doc as unknown as BenchmarkResult;
}

/** Read a saved result from a file, or standard input for "-". */
export async function readBenchmarkResult(source: string): Promise<{ file: string; result: BenchmarkResult }> {
  const input = await readInput(source);
  return { file: input.name, result: parseBenchmarkResult(input.text, input.name) };
}
