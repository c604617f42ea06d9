import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseBenchmarkResult } from '../src/benchmark/read-result.js';
import { rowKey, type BenchmarkResult } from '../src/benchmark/schema.js';
import { compareResults } from '../src/compare/compare.js';
import { compareView } from '../src/report/compare-view.js';
import { FIXTURES, REPO_ROOT } from './helpers/paths.js';

// Real results: a run over part of the embedded corpus (test/fixtures/report/small-result.json,
// 5 datasets x 4 levels x 5 formats x 2 tokenizers) and the committed results/baseline.json.
const file = join(FIXTURES, 'report', 'small-result.json');
const result = parseBenchmarkResult(readFileSync(file, 'utf8'), file);
const clone = (r: BenchmarkResult = result): BenchmarkResult => structuredClone(r);
const named = (r: BenchmarkResult, name: string) => ({ file: name, result: r });
const entries = result.rows.length / result.tokenizers.length;

describe('devboy compare (library)', () => {
  it('a result against itself: passes, every row compared once per tokenizer, nothing listed', () => {
    const c = compareResults(named(clone(), 'base.json'), named(result, 'head.json'));
    assert.equal(c.schema, 'devboy.compare/1');
    assert.equal(c.passed, true);
    assert.equal(c.counts.rows_compared, result.rows.length);
    assert.equal(c.counts.entries_compared, entries);
    for (const k of ['regressions', 'improvements', 'lost_round_trips', 'gained_round_trips', 'removed', 'added', 'out_of_scope'] as const)
      assert.equal(c.counts[k], 0, k);
    assert.equal(c.summary.length, result.settings.formats.length * result.settings.levels.length * 2);
    assert.ok(c.summary.every((x) => x.tokens.change === 0 && x.pages.base === x.pages.head));
    assert.ok(c.timing.per_format.every((t) => t.flag === null));
  });

  it('a change of timing (fixed runs, adaptive runs, another time budget) is named in the notes, and passes', () => {
    const adaptive = clone();
    adaptive.settings.timing = { mode: 'adaptive', max_runs: 5, budget_ms: 1 };
    const c = compareResults(named(clone(), 'base.json'), named(adaptive, 'head.json'));
    assert.equal(c.passed, true);
    assert.ok(c.notes.includes('timing fixed -> adaptive (at most 5 runs within 1 ms)'), c.notes.join('; '));
    const slower = clone(adaptive);
    slower.settings.timing = { mode: 'adaptive', max_runs: 5, budget_ms: 4 };
    assert.ok(compareResults(named(adaptive, 'a.json'), named(slower, 'b.json')).notes.some((n) => n.includes('within 4 ms')));
    assert.ok(!compareResults(named(adaptive, 'a.json'), named(clone(adaptive), 'b.json')).notes.some((n) => n.startsWith('timing')));
  });

  it('a row that grew under one tokenizer is one regression, with both tokenizers side by side', () => {
    const base = clone();
    const row = base.rows.find((r) => r.tokenizer === 'o200k_base' && r.tokens > 1000)!;
    row.tokens = Math.floor(row.tokens * 0.9);
    const c = compareResults(named(base, 'base.json'), named(result, 'head.json'));
    assert.equal(c.passed, false);
    assert.equal(c.regressions.length, 1);
    const [e] = c.regressions;
    assert.deepEqual([e!.label, e!.level, e!.format], [row.label, row.level, row.format]);
    assert.deepEqual(Object.keys(e!.tokens).sort(), ['heuristic', 'o200k_base']);
    assert.equal(e!.tokens.o200k_base!.base, row.tokens);
    assert.equal(e!.tokens.heuristic!.change, 0);
    const cell = c.summary.find((x) => x.format === row.format && x.level === row.level && x.tokenizer === 'o200k_base')!;
    assert.equal(cell.regressions, 1);
  });

  it('--max-regression is the tolerance: 0.4% growth passes at 0.5% and fails at 0.3%', () => {
    const base = clone();
    const r = base.rows.find((x) => x.tokens > 10_000)!;
    r.tokens = Math.ceil(r.tokens / 1.004);
    assert.equal(compareResults(named(base, 'b'), named(result, 'h'), { maxRegression: 0.005 }).passed, true);
    assert.equal(compareResults(named(base, 'b'), named(result, 'h'), { maxRegression: 0.003 }).passed, false);
  });

  it('growth of exactly --max-regression passes; one token more fails (the gate is "more than")', () => {
    const head = clone();
    const r = head.rows.find((x) => x.tokenizer === 'o200k_base' && x.tokens >= 1000)!;
    // 1000 tokens growing to 1005 is exactly 0.5%; 1006 is over it.
    const base = clone(head);
    base.rows.find((x) => rowKey(x) === rowKey(r) && x.tokenizer === r.tokenizer)!.tokens = 1000;
    const at = (tokens: number) => {
      r.tokens = tokens;
      return compareResults(named(base, 'b'), named(head, 'h'), { maxRegression: 0.005 });
    };
    assert.equal(at(1005).passed, true);
    assert.equal(at(1005).regressions.length, 0);
    assert.equal(at(1006).passed, false);
    assert.deepEqual(
      at(1006).regressions.map((e) => e.tokens[r.tokenizer]),
      [{ base: 1000, head: 1006, change: 0.006 }],
    );
  });

  it('a lost round trip and a missing row fail; a regained round trip, new rows and improvements do not', () => {
    const lossy = result.rows.find((r) => !r.lossless)!;
    const base = clone();
    const was = base.rows.find((r) => rowKey(r) === rowKey(lossy))!;
    was.lossless = true;
    delete was.lossless_reason;
    base.rows.push({ ...base.rows[0]!, label: 'GET /gone' });
    const failed = compareResults(named(base, 'b'), named(result, 'h'));
    assert.equal(failed.passed, false);
    assert.equal(failed.lost_round_trips.length, 1, 'one entry, though two tokenizer rows lost it');
    assert.equal(failed.lost_round_trips[0]!.reason, lossy.lossless_reason);
    assert.deepEqual(
      failed.removed.map((r) => [r.label, r.tokenizers]),
      [['GET /gone', [base.rows[0]!.tokenizer]]],
    );

    // The other way round: the row round-trips again, the extra row is new, nothing fails.
    const back = compareResults(named(result, 'h'), named(base, 'b'));
    assert.equal(back.passed, true);
    assert.equal(back.gained_round_trips.length, 1);
    assert.equal(back.counts.added, 1);
  });

  it('swapping base and head swaps regressions and improvements', () => {
    const base = clone();
    for (const r of base.rows) if (r.format === 'toon') r.tokens = Math.floor(r.tokens * 0.95);
    const forward = compareResults(named(base, 'b'), named(result, 'h'));
    const backward = compareResults(named(result, 'h'), named(base, 'b'));
    assert.equal(forward.counts.regressions, entries / result.settings.formats.length);
    assert.equal(backward.counts.improvements, forward.counts.regressions);
    assert.equal(backward.counts.regressions, 0);
    const key = (e: { label: string; level: string; format: string }) => `${e.label}|${e.level}|${e.format}`;
    assert.deepEqual(forward.regressions.map(key).sort(), backward.improvements.map(key).sort());
  });

  it('a narrowed head is compared with the base rows in its scope only (the committed baseline, one project)', () => {
    const baseline = parseBenchmarkResult(readFileSync(join(REPO_ROOT, 'results', 'baseline.json'), 'utf8'), 'baseline.json');
    const head = clone();
    head.rows = head.rows.filter((r) => r.project === 'betamaxpy__betamax');
    head.datasets = head.datasets.filter((d) => d.project === 'betamaxpy__betamax');
    head.source = { kind: 'corpus', corpus: 'embedded', target: 'betamaxpy__betamax' };
    // The fixture's run measured betamax's issue lists; the baseline also has the pull requests they mix in.
    head.settings.dataset_kinds = ['issues'];
    const c = compareResults(named(baseline, 'results/baseline.json'), named(head, 'run.json'));
    assert.equal(c.passed, true, JSON.stringify(c.counts));
    assert.equal(c.counts.rows_compared, head.rows.length);
    assert.equal(c.counts.out_of_scope, baseline.rows.length - head.rows.length);
    assert.ok(
      c.notes.some((n) => /budget 8000 -> 2000/.test(n)),
      'the differing budget is named',
    );

    // Not narrowed: every other project of the baseline is missing, and that fails.
    head.source = { kind: 'corpus', corpus: 'embedded' };
    head.settings.dataset_kinds = result.settings.dataset_kinds;
    const all = compareResults(named(baseline, 'results/baseline.json'), named(head, 'run.json'));
    assert.equal(all.passed, false);
    assert.equal(all.counts.out_of_scope, 0);
    assert.ok(all.counts.removed > 0);
  });

  it('a head with no row in common with the base fails: a gate that compared nothing has checked nothing', () => {
    // A project the base never measured (a new matrix entry, or the wrong baseline file): every head row is new.
    const base = clone();
    base.rows = base.rows.filter((r) => r.project !== 'betamaxpy__betamax');
    const head = clone();
    head.rows = head.rows.filter((r) => r.project === 'betamaxpy__betamax');
    head.datasets = head.datasets.filter((d) => d.project === 'betamaxpy__betamax');
    head.source = { kind: 'corpus', corpus: 'embedded', target: 'betamaxpy__betamax' };
    const c = compareResults(named(base, 'base.json'), named(head, 'head.json'));
    assert.equal(c.counts.rows_compared, 0);
    assert.equal(c.counts.out_of_scope, base.rows.length);
    assert.ok(c.counts.added > 0);
    assert.equal(c.passed, false);
    const verdict = compareView(c).verdict;
    assert.match(verdict, /^FAILED: no row of the head is in the base, so nothing was compared/);
    assert.match(verdict, new RegExp(`${base.rows.length} base rows outside the head's scope`));

    // One row in common is a comparison again: the same head passes against a base that has it.
    base.rows.push(head.rows[0]!);
    assert.equal(compareResults(named(base, 'base.json'), named(head, 'head.json')).passed, true);
  });

  it("a merged head's scope is the union of its parts' sources", () => {
    const head = clone();
    head.merged_from = [
      { file: 'a.json', source: { kind: 'corpus', corpus: 'embedded', target: 'artsy__emission' }, datasets: 3, rows: 120 },
      { file: 'b.json', source: { kind: 'corpus', corpus: 'embedded', target: 'betamaxpy__betamax' }, datasets: 2, rows: 80 },
    ];
    const base = clone();
    base.rows.push({ ...base.rows[0]!, project: 'some__other' });
    const c = compareResults(named(base, 'b'), named(head, 'h'));
    assert.equal(c.passed, true);
    assert.equal(c.counts.out_of_scope, 1);
    assert.equal(c.head.merged_parts, 2);
  });

  it('timing is flagged only outside both spreads, and never fails the gate', () => {
    const base = clone();
    for (const r of base.rows) {
      r.encode_ms = r.encode_spread_ms[0] / 10;
      r.encode_spread_ms = [r.encode_spread_ms[0] / 20, r.encode_spread_ms[0] / 10];
    }
    const c = compareResults(named(base, 'b'), named(result, 'h'));
    assert.equal(c.passed, true);
    assert.ok(c.timing.per_format.filter((t) => t.op === 'encode').every((t) => t.flag === 'slower'));
    assert.ok(c.timing.per_format.filter((t) => t.op === 'decode').every((t) => t.flag === null));
    assert.equal(c.timing.rows_slower, entries);

    // Inside the spread: a slower median whose runs overlap the base's is not flagged.
    const overlap = clone();
    for (const r of overlap.rows) r.encode_ms = r.encode_spread_ms[0];
    const quiet = compareResults(named(overlap, 'b'), named(result, 'h'));
    assert.ok(quiet.timing.per_format.every((t) => t.flag === null));
  });

  it('a timing is flagged only when both runs timed its rows enough times: a one-run cell has no spread to rank by', () => {
    // Every cell timed once in both runs, the head three times slower: zero-width spreads that do
    // not overlap, which must not read as an exact slowdown.
    const once = (r: BenchmarkResult) => {
      for (const x of r.rows) Object.assign(x, { encode_runs: 1, decode_runs: 1 });
      return r;
    };
    // stc encode three times its slowest run, every run of it above the base's slowest.
    const slow = (r: BenchmarkResult) => {
      for (const x of r.rows.filter((y) => y.format === 'stc')) {
        const t = x.encode_spread_ms[1] * 3;
        Object.assign(x, { encode_ms: t, encode_spread_ms: [t, t] });
      }
      return r;
    };
    const flat = (r: BenchmarkResult) => {
      for (const x of r.rows)
        Object.assign(x, { encode_spread_ms: [x.encode_ms, x.encode_ms], decode_spread_ms: [x.decode_ms, x.decode_ms] });
      return r;
    };
    const c = compareResults(named(once(flat(clone())), 'b'), named(slow(once(flat(clone()))), 'h'));
    const stc = c.timing.per_format.find((t) => t.format === 'stc' && t.op === 'encode')!;
    assert.ok(stc.change! > 1.9, String(stc.change));
    assert.equal(stc.flag, null);
    assert.equal(stc.too_few_runs, true);
    assert.equal(stc.rows_few_runs, stc.rows);
    assert.equal(stc.few_runs_share, 1);
    assert.deepEqual(stc.runs, { base: [1, 1], head: [1, 1] });
    assert.equal(c.timing.rows_slower, 0);
    assert.equal(c.timing.rows_few_runs, c.timing.rows_compared);
    assert.equal(c.timing.min_runs, 3);
    assert.ok(c.timing.per_format.every((t) => t.flag === null));
    // The same slowdown timed three times in both runs is flagged.
    const thrice = (r: BenchmarkResult) => {
      for (const x of r.rows) Object.assign(x, { encode_runs: 3, decode_runs: 3 });
      return r;
    };
    const timed = compareResults(named(thrice(clone()), 'b'), named(slow(thrice(clone())), 'h'));
    const flagged = timed.timing.per_format.find((t) => t.format === 'stc' && t.op === 'encode')!;
    assert.equal(flagged.flag, 'slower');
    assert.equal(flagged.too_few_runs, false);
    assert.deepEqual(flagged.runs, { base: [3, 3], head: [3, 3] });
    // Enough runs in one run only is not enough.
    const mixed = compareResults(named(thrice(clone()), 'b'), named(slow(once(clone())), 'h'));
    assert.equal(mixed.timing.per_format.find((t) => t.format === 'stc' && t.op === 'encode')!.flag, null);
  });

  it("timing's flag follows time, not row counts: most rows faster but the total slower is flagged slower, never faster", () => {
    // The shape behind a reported "toon decode +121% faster": many rows a little faster outside
    // their spreads, one row whose time grew many times over.
    const base = clone();
    const head = clone();
    const toon = (r: BenchmarkResult) => r.rows.filter((x) => x.format === 'toon');
    const [big, ...rest] = toon(head);
    for (const r of toon(base)) Object.assign(r, { decode_ms: 1, decode_spread_ms: [0.9, 1.1] });
    for (const r of rest) Object.assign(r, { decode_ms: 0.5, decode_spread_ms: [0.45, 0.55] });
    Object.assign(big!, { decode_ms: 100, decode_spread_ms: [99, 101] });
    const c = compareResults(named(base, 'b'), named(head, 'h'));
    const decode = c.timing.per_format.find((t) => t.format === 'toon' && t.op === 'decode')!;
    assert.ok(decode.change! > 1, String(decode.change));
    assert.ok(decode.rows_faster > decode.rows_slower);
    assert.equal(decode.flag, 'slower');
  });
});
