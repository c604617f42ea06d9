import { DataError } from '../errors.js';
import { parseJson } from '../json/parse.js';
import { isJsonObject } from '../json/types.js';
import { readInput } from '../io/read-input.js';
import { BENCHMARK_SCHEMA, type BenchmarkResult } from './schema.js';
import { checkResultFields, ResultFieldError } from './validate-result.js';

/**
 * Read a saved result (`--json`, `--export-json`, `devboy merge`); a file that is not one, or whose
 * fields are not as its schema says, is a one-line data error naming the file and the field, before
 * any work is done with it.
 */
export function parseBenchmarkResult(text: string, file: string): BenchmarkResult {
  const doc = parseJson(text, file);
  if (!isJsonObject(doc) || doc.schema !== BENCHMARK_SCHEMA) {
    throw new DataError(`not a devboy benchmark result (expected "schema": "${BENCHMARK_SCHEMA}")`, { file });
  }
  try {
    checkResultFields(doc);
  } catch (err) {
    if (err instanceof ResultFieldError) throw new DataError(`not a valid benchmark result: ${err.message}`, { file });
    throw err;
  }
  return doc as unknown as BenchmarkResult;
}

/** Read a saved result from a file, or standard input for "-". */
export async function readBenchmarkResult(source: string): Promise<{ file: string; result: BenchmarkResult }> {
  const input = await readInput(source);
  return { file: input.name, result: parseBenchmarkResult(input.text, input.name) };
}
