import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseBenchmarkResult } from '../src/benchmark/read-result.js';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { summarize } from '../src/report/benchmark-summary.js';
import { assembleResult } from '../src/benchmark/assemble.js';
import { EXPORTERS } from '../src/report/index.js';
import { lossSummary } from '../src/formats/loss.js';
import { runCli } from './helpers/cli.js';
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

// A lossy cell whose loss rounds to zero printed "1 lossy, 0.0% of their values lost", which reads
// as "nothing lost" (betamax standard gcf: a key order change). A share that is not zero but rounds
// to it is "<0.1%"; a round trip that lost no value and is lossy all the same says what changed.

/** The small run with gcf at full level lossy in two datasets: `a` by key order alone, `b` by 1 value of 20,000. */
function barelyLossy(keyOrderOnly: boolean, oneIn20k: boolean): BenchmarkResult {
  const result = parseBenchmarkResult(readFileSync(join(FIXTURES, 'report', 'small-result.json'), 'utf8'), 'small-result.json');
  const copy = structuredClone(result);
  const full = copy.rows.filter((r) => r.format === 'gcf' && r.level === 'full');
  const labels = [...new Set(full.map((r) => r.label))];
  const mark = (label: string, loss: NonNullable<BenchmarkResult['rows'][number]['loss']>) => {
    for (const r of full.filter((x) => x.label === label)) {
      r.lossless = false;
      r.lossless_reason = 'gcf key order changed at $[1], key 1: expected b,a; got a,b';
      r.loss = loss;
    }
  };
  if (keyOrderOnly)
    mark(labels[0]!, { values: 635, lost: 0, share: 0, paths: [{ path: '(item)', what: 'key order', values: 0 }], more_paths: 0 });
  if (oneIn20k)
    mark(labels[1]!, {
      values: 20000,
      lost: 1,
      share: 0.00005,
      paths: [{ path: 'title', what: 'changed: string', values: 1 }],
      more_paths: 0,
    });
  // The sections computed from rows (the lossy cells --details lists) follow the planted rows.
  return assembleResult(copy);
}

describe('a loss that rounds to 0.0% is never printed as 0.0%', () => {
  it('table: key order alone says no value was lost and what changed', () => {
    const text = EXPORTERS.table.render({ result: barelyLossy(true, false) }, { color: false, width: 1000 });
    assert.doesNotMatch(text, / 0\.0% of/);
    assert.match(text, /, 1 lossy: key order only, no value lost\b/);
    assert.match(text, /^ {2}gcf full: 1 of 5 datasets lossy: key order only, none of their 635 values lost \(\(item\): key order\)$/m);
  });

  it('table: 1 value of 20,000 is <0.1%', () => {
    const text = EXPORTERS.table.render({ result: barelyLossy(false, true) }, { color: false, width: 1000 });
    assert.doesNotMatch(text, / 0\.0% of/);
    assert.match(text, /, 1 lossy, <0\.1% of their values lost\b/);
    assert.match(text, /^ {2}gcf full: 1 of 5 datasets lossy, <0\.1% of their 20,000 values lost \(title: changed: string, 1\)$/m);
  });

  it('both together: the share of the lost values, over all their values', () => {
    const text = EXPORTERS.table.render({ result: barelyLossy(true, true) }, { color: false, width: 1000 });
    assert.match(text, /^ {2}gcf full: 2 of 5 datasets lossy, <0\.1% of their 20,635 values lost /m);
  });

  it('Markdown and --details: the same words', () => {
    for (const result of [barelyLossy(true, false), barelyLossy(false, true)]) {
      const markdown = EXPORTERS.markdown.render({ result }, { color: false });
      const details = EXPORTERS.table.render({ result }, { color: false, details: true, width: 1000 });
      for (const text of [markdown, details]) assert.doesNotMatch(text, / 0\.0% of/);
    }
    const markdown = EXPORTERS.markdown.render({ result: barelyLossy(true, false) }, { color: false });
    assert.match(markdown, /⚠ 1 lossy: key order only, no value lost \|/);
    assert.match(
      markdown,
      /^\| gcf \| full \| 1 of 5 datasets lossy: key order only, none of their 635 values lost \| `\(item\): key order` \|$/m,
    );
    const details = EXPORTERS.table.render({ result: barelyLossy(false, true) }, { color: false, details: true, width: 1000 });
    assert.match(details, /: <0\.1% of 20,000 values lost or changed \(title: changed: string\); first: /);
  });

  it('the answer against the user own format: <0.1%, or no value lost', () => {
    for (const [keyOrder, tiny, want] of [
      [true, false, /\(your YAML loses none of the values of the 1 of 5 datasets it does not round-trip: key order only\)/],
      [false, true, /\(your YAML loses <0\.1% of the values of the 1 of 5 datasets it does not round-trip\)/],
    ] as const) {
      const result = barelyLossy(keyOrder, tiny);
      result.settings.formats = result.settings.formats.map((f) => (f === 'gcf' ? 'yaml' : f));
      result.settings.savings_baseline = 'yaml';
      for (const r of result.rows) if (r.format === 'gcf') r.format = 'yaml';
      const text = EXPORTERS.table.render({ result }, { color: false, width: 1000 });
      assert.match(text, want);
    }
  });

  it('stats: a key order change alone is no value lost, not 0.0%', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devboy-losses-'));
    try {
      const file = join(dir, 'swapped.json');
      writeFileSync(file, '[{"a":1,"b":2},{"b":3,"a":4}]');
      const r = await runCli(['stats', file], { terminal: { columns: 1000 } });
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stdout, / 0\.0% of/);
      assert.match(
        r.stdout,
        /^ {2}raw gcf: none of 4 values lost or changed, key order only \(\(item\): key order\); first: gcf key order changed/m,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('lossSummary (stats and --details): <0.1% when some were lost', () => {
    assert.equal(
      lossSummary({
        values: 20000,
        lost: 1,
        share: 0.00005,
        paths: [{ path: 'title', what: 'changed: string', values: 1 }],
        more_paths: 0,
      }),
      '<0.1% of 20,000 values lost or changed (title: changed: string)',
    );
    assert.equal(
      lossSummary({
        values: 4,
        lost: 0,
        share: 0,
        paths: [
          { path: '(item)', what: 'key order', values: 0 },
          { path: 'x', what: 'added: key', values: 0 },
        ],
        more_paths: 0,
      }),
      'none of 4 values lost or changed, key order and added keys only ((item): key order; x: added: key)',
    );
  });
});
