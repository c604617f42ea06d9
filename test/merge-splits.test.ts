import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { runBenchmark, type BenchmarkOptions, type BenchmarkSource } from '../src/benchmark/run.js';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { loadExplainers } from '../src/formats/explainers.js';
import { mergeResults } from '../src/merge/merge.js';
import type { Dataset } from '../src/model/index.js';
import { corpusDatasets } from './helpers/budget.js';
import { assertSameSections } from './helpers/merged-sections.js';
import { corpusDir } from './helpers/paths.js';
import { FULL_SUITE } from './helpers/sampling.js';

// devboy merge of any split of a run equals the run in every section: by provider, by project, and
// arbitrary partitions of its datasets. Each part is a real run of its datasets. The grid is the
// smallest that has every derived section: the full level (the method contrast's scope), json and
// json-compact (its baselines) and gcf (a format with an explainer, so break-even; and lossy rows),
// the heuristic and a real tokenizer, small datasets of every provider and kind from several projects.

const FORMATS = ['json', 'json-compact', 'gcf'] as const;
let options: BenchmarkOptions;
let datasets: Dataset[];
let whole: BenchmarkResult;
const source: BenchmarkSource = { kind: 'corpus', corpus: corpusDir() };

/**
 * The largest dataset a split takes, in bytes of JSON. Under 8,000: 19 datasets of 7 projects, every
 * provider and kind, 7 pairs of one project and kind; under 20,000 (DEVBOY_TEST_CORPUS=full): 28 of 11,
 * each run about three times as long.
 */
const LARGEST = FULL_SUITE ? 20_000 : 8_000;

/** Up to two of the smallest datasets of each project and kind: every provider, several projects, every kind, a short run. */
function smallDatasets(all: readonly Dataset[]): Dataset[] {
  const size = new Map(all.map((d) => [d, JSON.stringify(d.raw).length]));
  const taken = new Map<string, number>();
  const kept = new Set(
    [...all]
      .filter((d) => size.get(d)! < LARGEST)
      .sort((a, b) => size.get(a)! - size.get(b)!)
      .filter((d) => {
        const key = `${d.provider}/${d.project}/${d.kind}`;
        const n = taken.get(key) ?? 0;
        taken.set(key, n + 1);
        return n < 2;
      }),
  );
  return all.filter((d) => kept.has(d));
}

function run(ds: readonly Dataset[], src: BenchmarkSource = source): Promise<BenchmarkResult> {
  return runBenchmark(ds, src, options);
}

/** Parts in the order of their first dataset, each a run; then merged, and the datasets in the merged order. */
async function mergedSplit(
  keyOf: (d: Dataset, i: number) => string,
  sourceOf?: (d: Dataset) => BenchmarkSource,
): Promise<{ merged: BenchmarkResult; order: Dataset[] }> {
  const parts = new Map<string, Dataset[]>();
  datasets.forEach((d, i) => {
    const key = keyOf(d, i);
    parts.set(key, [...(parts.get(key) ?? []), d]);
  });
  const results = [];
  for (const [key, ds] of parts) results.push({ file: `part-${key}.json`, result: await run(ds, sourceOf?.(ds[0]!) ?? source) });
  return { merged: mergeResults(results), order: [...parts.values()].flat() };
}

before(async () => {
  datasets = smallDatasets(await corpusDatasets());
  options = {
    kinds: ['issues', 'merge_requests', 'diffs', 'comments', 'discussions'],
    levels: ['full'],
    formats: [...FORMATS],
    tokenizers: ['heuristic', 'o200k_base'],
    budget: 2000,
    runs: 1,
    timeBudgetMs: 0,
    savingsBaseline: 'json_compact',
    explainers: await loadExplainers([...FORMATS]),
  };
  whole = await run(datasets);
});

describe('devboy merge: any split of a run equals the run, every section', () => {
  it('the whole run has every derived section, over more than one provider and project', () => {
    assert.ok(new Set(datasets.map((d) => d.provider)).size >= 3);
    assert.ok(new Set(datasets.map((d) => `${d.provider}/${d.project}`)).size >= 6);
    assert.deepEqual(new Set(datasets.map((d) => d.kind)), new Set(options.kinds));
    const kinds = datasets.map((d) => `${d.provider}/${d.project}/${d.kind}`);
    assert.ok(new Set(kinds).size < kinds.length, 'two datasets of one project and kind, told apart by their requests');
    assert.ok(whole.method_contrast && whole.method_contrast.scope.datasets > 2, 'a method contrast');
    assert.ok(whole.winner_by_tokenizer && whole.winner_by_tokenizer.length > 0, 'winners');
    assert.ok(whole.break_even && whole.break_even.length > 0, 'break-even');
    assert.ok(whole.lossy.length > 0, 'a lossy row');
    assert.ok(whole.heuristic_bias.length > 0, 'the heuristic bias');
  });

  it('by provider', async () => {
    const { merged } = await mergedSplit(
      (d) => d.provider,
      (d) => ({ ...source, provider: d.provider }),
    );
    assertSameSections(merged, whole);
  });

  it('by project', async () => {
    const { merged } = await mergedSplit(
      (d) => `${d.provider}/${d.project}`,
      (d) => ({ ...source, provider: d.provider, target: d.project }),
    );
    assert.equal(merged.merged_from!.length, new Set(datasets.map((d) => `${d.provider}/${d.project}`)).size);
    assertSameSections(merged, whole);
  });

  it('arbitrary partitions of the datasets: the whole run of the datasets in the merged order', async () => {
    // Parts list their datasets in the order given, so the merged result lists them in the parts'
    // order; a run of the datasets in that order is what it must equal, lists and derived sections alike.
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 0, max: 3 }), { minLength: datasets.length, maxLength: datasets.length }),
        async (part) => {
          const { merged, order } = await mergedSplit((_, i) => String(part[i]));
          assertSameSections(merged, await run(order));
        },
      ),
      { numRuns: 3 },
    );
  });
});
