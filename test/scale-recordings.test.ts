import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { EXPORTER_NAMES, EXPORTERS } from '../src/report/index.js';
import { summarize } from '../src/report/benchmark-summary.js';
import { matchRequest, RecordingIndex, requestKey, type Recording } from '../src/replay/match.js';
import { REPO_ROOT } from './helpers/paths.js';

// Issue 21 item 10: time grew quadratically with the recordings of one project (500: 6.7 s, 2,000:
// 38.5 s, 4,000: 229 s): replay matching compared every request with every recording, and the
// summary filtered every fit entry per dataset. Work is counted here, not timed: the reads of the
// recordings' keys and of the result's arrays must grow as the input does (4 times the input, at
// most 5 times the reads), where the quadratic code read 16 times as much.

const GROWTH = 4;
const LINEAR = 5;

describe('replay matching is indexed: a request is compared with the recordings of its own path only', () => {
  /** n recordings of n distinct paths, each key read counted; every recorded URL is then requested once. */
  function keyReads(n: number): number {
    let reads = 0;
    const recordings: Recording[] = Array.from({ length: n }, (_, order) => {
      const url = `/repos/acme/many/issues/${order + 1}/comments?per_page=100`;
      const key = requestKey('GET', url);
      const entry = {
        file: `github/acme__many/${order}.json`,
        exchange: {
          provider: 'github',
          project: 'acme__many',
          request: { method: 'GET', url },
          response: { status: 200, headers: {}, body: [] },
          provenance: {},
        },
      };
      return {
        get key() {
          reads++;
          return key;
        },
        recordedAt: 0,
        order,
        entry,
      };
    });
    const index = RecordingIndex.of(recordings);
    for (let i = 1; i <= n; i++) assert.equal(matchRequest(index, 'GET', `/repos/acme/many/issues/${i}/comments`)?.recording.order, i - 1);
    return reads;
  }

  it(`${GROWTH} times the recordings: at most ${LINEAR} times the comparisons`, () => {
    const small = keyReads(250);
    const large = keyReads(250 * GROWTH);
    assert.ok(large <= LINEAR * small, `${small} key reads for 250 recordings, ${large} for ${250 * GROWTH}`);
    assert.ok(large <= 10 * 250 * GROWTH, `${large} key reads for ${250 * GROWTH} requests`);
  });
});

describe('the report views grow with the datasets, not with their square', () => {
  // A quarter of the baseline's datasets, with their rows and fit entries: enough to tell n from n^2, and quick.
  const whole = JSON.parse(readFileSync(join(REPO_ROOT, 'results', 'baseline.json'), 'utf8')) as BenchmarkResult;
  const id = (x: { provider: string; project: string; dataset: string; label: string }) =>
    `${x.provider}|${x.project}|${x.dataset}|${x.label}`;
  const kept = new Set(whole.datasets.filter((_, i) => i % 4 === 0).map(id));
  const baseline: BenchmarkResult = {
    ...whole,
    datasets: whole.datasets.filter((d) => kept.has(id(d))),
    rows: whole.rows.filter((r) => kept.has(id(r))),
    fit: whole.fit.filter((f) => kept.has(id(f))),
  };

  /** The baseline's datasets, rows and fit entries `copies` times over, as if each project had that many more recordings. */
  function scaled(copies: number): BenchmarkResult {
    const copy = <T extends { project: string }>(xs: readonly T[]) =>
      Array.from({ length: copies }, (_, k) => xs.map((x) => ({ ...x, project: `${x.project}${k === 0 ? '' : `__copy${k}`}` }))).flat();
    return { ...baseline, datasets: copy(baseline.datasets), rows: copy(baseline.rows), fit: copy(baseline.fit) };
  }

  /** Element reads of the result's rows and fit entries while every exporter renders it. */
  function reads(result: BenchmarkResult): { rows: number; fit: number } {
    const counts = { rows: 0, fit: 0 };
    const counted = <T>(xs: T[], name: 'rows' | 'fit'): T[] =>
      new Proxy(xs, {
        get(target, prop, receiver) {
          if (typeof prop === 'string' && /^\d+$/.test(prop)) counts[name]++;
          return Reflect.get(target, prop, receiver) as unknown;
        },
      });
    const wrapped = { ...result, rows: counted(result.rows, 'rows'), fit: counted(result.fit, 'fit') };
    summarize(wrapped);
    for (const name of EXPORTER_NAMES) if (name !== 'json') EXPORTERS[name].render({ result: wrapped }, { color: false, details: true });
    return counts;
  }

  it(`${GROWTH} times the datasets: at most ${LINEAR} times the reads of rows and fit entries`, () => {
    const small = reads(scaled(1));
    const large = reads(scaled(GROWTH));
    assert.ok(
      large.fit <= LINEAR * small.fit,
      `fit entries: ${small.fit} reads for ${baseline.datasets.length} datasets, ${large.fit} for ${GROWTH} times as many`,
    );
    assert.ok(large.rows <= LINEAR * small.rows, `rows: ${small.rows} reads, then ${large.rows}`);
  });
});
