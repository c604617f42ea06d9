import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { compareWithBaseline, parseBaseline } from '../src/benchmark/regression.js';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { EXPORTER_NAMES, EXPORTERS, type ReportInput } from '../src/report/index.js';
import { FIXTURES } from './helpers/paths.js';

// Snapshot tests in the manner of hyperfine's exporter tests: a small benchmark result, committed
// as data, is rendered by every exporter in-process and compared byte for byte with its golden
// file. A change to an exporter's output is a reviewed change to the golden file
// (UPDATE_GOLDEN=1 npm test rewrites them).

const DIR = join(FIXTURES, 'report');
const resultFile = join(DIR, 'small-result.json');
const result = parseBaseline(readFileSync(resultFile, 'utf8'), resultFile);

/** The same run against a baseline where every TOON row cost 5% fewer tokens and one row was lossless. */
function regressed(): ReportInput {
  const baseline: BenchmarkResult = structuredClone(result);
  for (const r of baseline.rows) if (r.format === 'toon') r.tokens = Math.floor(r.tokens * 0.95);
  const lossy = baseline.rows.find((r) => !r.lossless)!;
  lossy.lossless = true;
  baseline.rows.push({ ...baseline.rows[0]!, label: 'GET /repos/gone/away' });
  return { result, regression: compareWithBaseline(result, baseline, 'results/tightened.json') };
}

const CASES: { name: string; input: ReportInput }[] = [
  { name: 'result', input: { result } },
  { name: 'regression', input: regressed() },
];

function golden(file: string, actual: string): string {
  const path = join(DIR, file);
  if (process.env.UPDATE_GOLDEN) writeFileSync(path, actual);
  return readFileSync(path, 'utf8');
}

describe('exporters against golden files', () => {
  for (const name of EXPORTER_NAMES) {
    for (const c of CASES) {
      it(`${name}: ${c.name}`, () => {
        const exporter = EXPORTERS[name];
        const actual = exporter.render(c.input, { color: false });
        assert.equal(actual, golden(`golden-${c.name}-${name}${exporter.extension}`, actual));
      });
    }
  }

  it('the JSON exporter writes the result back unchanged (a saved run is the same run)', () => {
    const text = EXPORTERS.json.render({ result });
    assert.deepEqual(JSON.parse(text), result);
    assert.equal(text, readFileSync(resultFile, 'utf8'));
  });

  it('the regression case really regressed: token growth, a lost round trip and a missing row are named', () => {
    const r = regressed().regression!;
    assert.equal(r.passed, false);
    const kinds = new Set(r.regressions.map((g) => g.kind));
    assert.deepEqual([...kinds].sort(), ['lossless', 'missing', 'tokens']);
    assert.equal(r.regressions.filter((g) => g.kind === 'tokens').length, result.rows.filter((x) => x.format === 'toon').length);
  });
});
