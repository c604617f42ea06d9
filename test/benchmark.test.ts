import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { chunkResponse, planChunks } from '../src/budget/plan-chunks.js';
import { datasetBudgetInput, respondWithinBudget } from '../src/budget/respond-within-budget.js';
import { runBenchmark } from '../src/benchmark/run.js';
import { rowKey, type BenchmarkResult } from '../src/benchmark/schema.js';
import { FORMAT_INFO, FORMAT_NAMES, loadFormat } from '../src/formats/registry.js';
import { verifyRoundTrip } from '../src/formats/verify.js';
import { FORMAT_METADATA_FIELDS } from '../src/metadata/format-metadata.js';
import { loadCorpusDatasets } from '../src/providers/load.js';
import { DATASET_KINDS, type Dataset } from '../src/model/index.js';
import { loadTokenizer } from '../src/tokens/registry.js';
import { datasetAtLevel, LEVELS } from '../src/trim/levels.js';
import { corpusDir } from './helpers/paths.js';

// The registries' lists, so a new format, kind or level is measured here without an edit.
const ALL_FORMATS = FORMAT_NAMES;
const KINDS = DATASET_KINDS;
let datasets: Dataset[];
let result: BenchmarkResult;

before(async () => {
  // One project with every kind, and GCF key-order losses among its raw bodies (the whole corpus is
  // measured by the benchmark gate in .ci/run and compared with results/baseline.json). Of its seven
  // issue lists, two thirds of its bytes, one: the smallest that carries GitLab's X-Total.
  const project = await loadCorpusDatasets(corpusDir(), { provider: 'gitlab', project: 'gitlab-org__gitlab-foss' });
  const size = (d: Dataset) => JSON.stringify(d.raw).length;
  const issues = project
    .filter((d) => d.kind === 'issues' && d.result.pagination?.total !== undefined)
    .sort((a, b) => size(a) - size(b))[0];
  datasets = project.filter((d) => d.kind !== 'issues' || d === issues);
  result = await runBenchmark(
    datasets,
    { kind: 'corpus', corpus: corpusDir() },
    {
      kinds: [...KINDS],
      levels: [...LEVELS],
      formats: [...ALL_FORMATS],
      tokenizers: ['heuristic', 'o200k_base'],
      budget: 2000,
      runs: 1,
      savingsBaseline: 'json_compact',
    },
  );
});

describe('benchmark matrix on real corpus data', () => {
  it('has one row per dataset, level, format and tokenizer', () => {
    assert.equal(result.rows.length, datasets.length * LEVELS.length * ALL_FORMATS.length * 2);
    assert.equal(new Set(result.rows.map(rowKey)).size, result.rows.length);
    assert.deepEqual(new Set(result.rows.map((r) => r.dataset)), new Set(KINDS));
  });

  it('token and byte counts are those of the encoded items, counted independently', async () => {
    const o200k = await loadTokenizer('o200k_base');
    for (const ds of datasets.slice(0, 6)) {
      for (const level of LEVELS) {
        for (const name of ['toon', 'stc', 'json'] as const) {
          const text = (await loadFormat(name)).encode(datasetAtLevel(ds, level));
          const row = result.rows.find(
            (r) =>
              r.label === ds.label &&
              r.project === ds.project &&
              r.dataset === ds.kind &&
              r.level === level &&
              r.format === name &&
              r.tokenizer === 'o200k_base',
          )!;
          assert.equal(row.tokens, o200k.count(text), `${ds.label} ${level} ${name}`);
          assert.equal(row.bytes, Buffer.byteLength(text));
          const heuristic = result.rows.find((r) => rowKey(r) === rowKey({ ...row, tokenizer: 'heuristic' }))!;
          assert.equal(heuristic.tokens, Math.ceil(Buffer.byteLength(text) / 3.5));
        }
      }
    }
  });

  it('savings name their baseline and follow 1 - tokens / baseline tokens, and the combined rule', () => {
    const byKey = new Map(result.rows.map((x) => [rowKey(x), x]));
    for (const r of result.rows) {
      const same = (format: string) => byKey.get(rowKey({ ...r, format: format as never }))!;
      assert.equal(r.savings.baseline, 'json_compact');
      assert.equal(r.savings.baseline_tokens, same('json-compact').tokens);
      assert.ok(Math.abs(r.savings.vs.json_compact - (1 - r.tokens / same('json-compact').tokens)) < 1e-6);
      assert.ok(Math.abs(r.savings.vs.json_pretty - (1 - r.tokens / same('json').tokens)) < 1e-6);
      assert.equal(r.savings.encoder, r.savings.vs.json_compact);
      assert.equal(r.savings.dedup, 0);
      assert.equal(r.savings.combined, r.savings.encoder);
    }
  });

  it('marks exactly the rows that do not round-trip, with the reason', async () => {
    const gcf = await loadFormat('gcf');
    const lossy = result.rows.filter((r) => !r.lossless);
    assert.ok(lossy.length > 0, 'gitlab merge requests and notes lose key order in GCF');
    // Among the candidates only GCF loses here (key order); the baselines lose by design, each row says what.
    const candidates = lossy.filter((r) => FORMAT_INFO[r.format].role === 'candidate');
    assert.ok(candidates.every((r) => r.format === 'gcf' && /key order changed/.test(r.lossless_reason ?? '')));
    for (const r of candidates) assert.equal(r.loss?.lost, 0, 'key order loses no value');
    for (const r of lossy) {
      const loss = r.loss!;
      assert.ok(loss.values > 0 && loss.lost <= loss.values && loss.share === Math.round((loss.lost / loss.values) * 1e6) / 1e6, rowKey(r));
      assert.ok(loss.paths.length > 0 && loss.paths.length <= 5);
    }
    // Provider items as sent hold numbers and nested objects: a CSV of them always loses some.
    const csv = result.rows.filter((r) => r.format === 'csv' && r.level === 'raw');
    assert.ok(csv.length > 0 && csv.every((r) => !r.lossless && r.loss!.share > 0), 'a CSV of provider items always loses a typed value');
    for (const ds of datasets) {
      for (const level of LEVELS) {
        const check = verifyRoundTrip(gcf, datasetAtLevel(ds, level));
        const row = result.rows.find(
          (r) =>
            r.label === ds.label &&
            r.project === ds.project &&
            r.dataset === ds.kind &&
            r.level === level &&
            r.format === 'gcf' &&
            r.tokenizer === 'o200k_base',
        )!;
        assert.equal(row.lossless, check.lossless, `${ds.label} ${level}`);
      }
    }
    assert.equal(result.lossy.length, lossy.length / 2); // listed once, not per tokenizer
    for (const l of result.lossy) assert.ok(l.loss && l.loss.values > 0);
  });

  it('every row carries FormatMetadata with exactly the 19 fields of seed 001, consistent with the row', () => {
    for (const r of result.rows) {
      assert.deepEqual(Object.keys(r.metadata).sort(), [...FORMAT_METADATA_FIELDS].sort());
      assert.equal(r.metadata.estimated_tokens, r.tokens);
      assert.equal(r.metadata.output_chars, r.bytes);
      assert.equal(r.metadata.tokenizer, r.tokenizer);
      assert.equal(r.metadata.format, r.format);
      assert.equal(r.metadata.total_chunks, r.pages);
      assert.equal(r.metadata.chunked, r.pages > 1);
      assert.equal(r.metadata.encoder_savings_pct, r.savings.encoder);
    }
  });

  it('FormatMetadata values are recomputed from the data, not only copied between fields', () => {
    const rawBytes = new Map(datasets.map((d) => [d, Buffer.byteLength(JSON.stringify(d.raw))]));
    for (const r of result.rows) {
      const ds = datasets.find((d) => d.label === r.label && d.project === r.project && d.kind === r.dataset)!;
      const raw = rawBytes.get(ds)!;
      const m = r.metadata;
      assert.equal(m.raw_chars, raw, rowKey(r));
      assert.equal(m.pre_trim_chars, r.bytes);
      assert.equal(m.compression_ratio, Math.round((r.bytes / raw) * 1e6) / 1e6, rowKey(r));
      assert.equal(m.total_items, ds.result.items.length);
      assert.equal(m.included_items, ds.result.items.length);
      assert.equal(m.truncated, false);
      assert.equal(m.chunk_number, 1);
      assert.deepEqual(m.provider_pagination, ds.result.pagination ?? null);
      assert.deepEqual(m.provider_sort, ds.result.sort_info ?? null);
      assert.equal(m.baseline, 'json_compact');
      assert.equal(m.dedup_savings_pct, 0);
      assert.equal(m.combined_savings_pct, m.encoder_savings_pct);
    }
  });

  it('pages: one when the list fits the budget, else the chunk plan of the budget pipeline, every response within budget', async () => {
    const o200k = await loadTokenizer('o200k_base');
    let checked = 0;
    for (const r of result.rows) {
      if (r.tokens <= 2000) assert.equal(r.pages, 1);
      else assert.ok(r.pages >= Math.ceil(r.tokens / 2000), `${rowKey(r)}: ${r.pages} pages for ${r.tokens} tokens`);
      if (r.pages < 2 || r.tokenizer !== 'o200k_base' || r.format !== 'stc' || checked >= 4) continue;
      const ds = datasets.find((d) => d.label === r.label && d.project === r.project && d.kind === r.dataset)!;
      const items = datasetAtLevel(ds, r.level);
      const options = {
        kind: ds.kind,
        format: await loadFormat('stc'),
        tokenizer: o200k,
        budget: 2000,
        level: 'raw' as const,
        ...(items.length === ds.result.items.length ? { models: ds.result.items } : {}),
      };
      const plan = planChunks(items, options);
      assert.equal(plan.total_chunks, r.pages);
      const seen = plan.chunks.reduce((n, c) => n + c.limit, 0);
      assert.equal(seen, items.length, 'the chunks cover every item once');
      // An item larger than a response by itself is its own chunk and counts as several pages (docs/budget.md).
      for (let k = 0; k < plan.chunks.length; k++) {
        if (plan.oversized.includes(plan.chunks[k]!.offset)) continue;
        assert.ok(o200k.count(chunkResponse(items, options, plan, k)) <= 2000, `${rowKey(r)} chunk ${k + 1}`);
      }
      checked++;
    }
    assert.ok(checked > 0, 'some rows need more than one page at 2000 tokens');
  });

  it('the fit view: what the first response holds at the budget, counted with the real tokenizer', async () => {
    const o200k = await loadTokenizer('o200k_base');
    assert.equal(result.fit.length, datasets.length * ALL_FORMATS.length);
    let squeezed = 0;
    for (const f of result.fit) {
      assert.equal(f.tokenizer, 'o200k_base');
      if (!f.fits) continue;
      assert.ok(f.tokens <= 2000, `${f.label} ${f.format}: ${f.tokens}`);
      assert.equal(f.detail.full + f.detail.standard + f.detail.minimal, f.included_items);
      if (f.included_items < f.total_items || f.truncated) squeezed++;
    }
    assert.ok(squeezed > 0);
    const big = result.fit.find((f) => f.fits && f.truncated && f.format === 'toon')!;
    const ds = datasets.find((d) => d.label === big.label && d.project === big.project && d.kind === big.dataset)!;
    const again = respondWithinBudget(datasetBudgetInput(ds), { format: await loadFormat('toon'), tokenizer: o200k, budget: 2000 });
    assert.equal(o200k.count(again.content), big.fits ? big.tokens : -1);
  });

  it('carries pagination and sort from the provider', () => {
    const issues = result.datasets.find((d) => d.provider === 'gitlab' && d.dataset === 'issues' && d.pagination?.total !== undefined);
    assert.ok(issues, 'a GitLab issue list with X-Total');
    const row = result.rows.find((r) => r.label === issues.label && r.project === issues.project)!;
    assert.deepEqual(row.metadata.provider_pagination, issues.pagination);
  });

  it('the heuristic bias is the sum of heuristic over the sum of real tokens, per format and level', () => {
    for (const b of result.heuristic_bias) {
      const pick = (tk: string) =>
        result.rows.filter((r) => r.format === b.format && r.level === b.level && r.tokenizer === tk).reduce((a, r) => a + r.tokens, 0);
      assert.equal(b.tokens, pick('o200k_base'));
      assert.equal(b.heuristic_tokens, pick('heuristic'));
      assert.ok(Math.abs(b.bias - (b.heuristic_tokens / b.tokens - 1)) < 1e-12);
    }
  });
});
