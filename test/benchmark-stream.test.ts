import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { runBenchmark, type BenchmarkOptions } from '../src/benchmark/run.js';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { loadCorpusDatasets, openCorpusDatasets } from '../src/providers/load.js';
import { DATASET_KINDS } from '../src/model/index.js';
import { corpusDir } from './helpers/paths.js';
import { FULL_SUITE } from './helpers/sampling.js';

// The benchmark reads a corpus a project at a time (so memory does not grow with the corpus): the
// result must be the one it gives for the same datasets read all at once.

const dir = mkdtempSync(join(tmpdir(), 'devboy-stream-corpus-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/**
 * The embedded corpus's GitLab projects but gitlab-foss (most of their bytes, and of the run): two
 * with datasets and a group's milestones, a project that gives none but still counts in the
 * progress. Every GitLab project under DEVBOY_TEST_CORPUS=full.
 */
function gitlabCorpus(): string {
  if (FULL_SUITE) return corpusDir();
  for (const project of ['dev.gitlab.org__gitlab__gitlabhq', 'gitlab-org__group', 'rust-lang__triagebot__as-gitlab'])
    cpSync(join(corpusDir(), 'gitlab', project), join(dir, 'gitlab', project), { recursive: true });
  return dir;
}

const OPTIONS: BenchmarkOptions = {
  kinds: [...DATASET_KINDS],
  levels: ['standard'],
  formats: ['json-compact', 'toon'],
  tokenizers: ['o200k_base'],
  budget: 2000,
  runs: 1,
  savingsBaseline: 'json_compact',
};

/** Everything but the timings, which differ from run to run. */
function measuredFacts(r: BenchmarkResult) {
  return {
    ...r,
    rows: r.rows.map(
      ({ encode_ms: _e, decode_ms: _d, encode_spread_ms: _es, decode_spread_ms: _ds, encode_runs: _er, decode_runs: _dr, ...rest }) => rest,
    ),
  };
}

describe('benchmark over a corpus read a project at a time', () => {
  it('gives the result of the same datasets read at once, with progress counted in projects', async () => {
    const corpus = gitlabCorpus();
    const filter = { provider: 'gitlab' as const };
    const source = { kind: 'corpus' as const, corpus };
    const all = await loadCorpusDatasets(corpus, filter);
    const stream = await openCorpusDatasets(corpus, filter);
    const progress: number[] = [];
    const streamed = await runBenchmark({ total: stream.projects, batches: stream.batches }, source, OPTIONS, (p) => {
      assert.equal(p.total, stream.projects);
      progress.push(p.done);
    });
    const atOnce = await runBenchmark(all, source, OPTIONS);
    assert.deepEqual(measuredFacts(streamed), measuredFacts(atOnce));
    assert.deepEqual(
      streamed.datasets.map((d) => d.project),
      all.map((d) => d.project),
    );
    assert.equal(progress.at(-1), stream.projects);
    assert.ok(stream.projects > 1);
  });
});
