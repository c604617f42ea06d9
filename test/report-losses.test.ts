import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseBenchmarkResult } from '../src/benchmark/read-result.js';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { summarize } from '../src/report/benchmark-summary.js';
import { EXPORTERS } from '../src/report/index.js';
import { FIXTURES } from './helpers/paths.js';

// The share a lossy format loses is taken over the values of the datasets it does not round-trip
// (lossless rows record no value count). Read as a share of every value it would be far smaller,
// so every report must say what it is over.

/**
 * The small committed run, with the user's format as savings baseline (gcf named yaml) and one of
 * its five datasets at full level lossy: 20 of that dataset's 40 values lost. Over the lossy
 * dataset that is 50.0%; over the values of all five datasets (the other four hold hundreds, all
 * kept) it would be a few percent.
 */
function constructed(): BenchmarkResult {
  const result = parseBenchmarkResult(readFileSync(join(FIXTURES, 'report', 'small-result.json'), 'utf8'), 'small-result.json');
  const yaml = structuredClone(result);
  yaml.settings.formats = yaml.settings.formats.map((f) => (f === 'gcf' ? 'yaml' : f));
  yaml.settings.savings_baseline = 'yaml';
  for (const r of yaml.rows) if (r.format === 'gcf') r.format = 'yaml';
  for (const l of yaml.lossy) if (l.format === 'gcf') l.format = 'yaml';
  const full = yaml.rows.filter((r) => r.format === 'yaml' && r.level === 'full');
  const dataset = full[0]!.label;
  for (const r of full.filter((x) => x.label === dataset)) {
    r.lossless = false;
    r.lossless_reason = 'yaml value changed at $[0].title (expected "a"; got "b")';
    r.loss = { values: 40, lost: 20, share: 0.5, paths: [{ path: 'title', what: 'changed: string', values: 20 }], more_paths: 0 };
  }
  return yaml;
}

describe('the share a lossy format loses says what it is over: the values of the datasets it does not round-trip', () => {
  const result = constructed();

  it('the figure is over the lossy dataset only, not every dataset (the two readings differ here)', () => {
    const full = summarize(result).losses.find((l) => l.format === 'yaml' && l.level === 'full')!;
    assert.deepEqual(
      { lossyRows: full.lossyRows, rows: full.rows, values: full.values, lost: full.lost },
      { lossyRows: 1, rows: 5, values: 40, lost: 20 },
    );
  });

  it('table: the totals cell, the loss line and the answer name it', () => {
    const text = EXPORTERS.table.render({ result }, { color: false, width: 1000 });
    assert.match(text, /, 1 lossy, 50\.0% of their values lost\b/);
    assert.match(text, /^ {2}yaml full: 1 of 5 datasets lossy, 50\.0% of their 40 values lost \(title: changed: string, 20\)$/m);
    assert.match(text, /\(your YAML loses 50\.0% of the values of the 1 of 5 datasets it does not round-trip\)/);
    assert.doesNotMatch(text, /\d% lost\b/);
  });

  it('Markdown: the totals cell and the table of losses name it', () => {
    const text = EXPORTERS.markdown.render({ result }, { color: false });
    assert.match(text, /⚠ 1 lossy, 50\.0% of their values lost \|/);
    assert.match(text, /^\| yaml \| full \| 1 of 5 datasets lossy, 50\.0% of their 40 values lost \| `title: changed: string, 20` \|$/m);
    assert.match(text, /\(your YAML loses 50\.0% of the values of the 1 of 5 datasets it does not round-trip\)/);
  });
});
