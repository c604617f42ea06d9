import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import type { Comparison } from '../src/compare/compare.js';
import { runCli } from './helpers/cli.js';
import { mermaidBlocks, mermaidParse } from './helpers/mermaid.js';
import { REPO_ROOT } from './helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'devboy-compare-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const BASELINE = join(REPO_ROOT, 'results', 'baseline.json');

/**
 * The committed baseline's Jira part (1,640 of its 3,880 rows), scoped as a `--provider jira` run
 * is: the gate's verdicts are judged on it, each compare reading half as much. Compare reads the
 * rows, datasets, settings, tokenizers, formats and source; the corpus-wide sections stay as committed.
 */
type Scoped = { provider: string; project: string; dataset: string };
/** A result's datasets that `keep` keeps, with their rows and sections. */
function narrowed(whole: BenchmarkResult, keep: (x: Scoped) => boolean): BenchmarkResult {
  return {
    ...whole,
    datasets: whole.datasets.filter(keep),
    rows: whole.rows.filter(keep),
    lossy: whole.lossy.filter(keep),
    fit: whole.fit.filter(keep),
  };
}
const baseline: BenchmarkResult = (() => {
  const whole: BenchmarkResult = JSON.parse(readFileSync(BASELINE, 'utf8'));
  return { ...narrowed(whole, (x) => x.provider === 'jira'), source: { ...whole.source, provider: 'jira' } };
})();
const JIRA_BASELINE = join(dir, 'jira-baseline.json');
writeFileSync(JIRA_BASELINE, JSON.stringify(baseline));

/**
 * ALOY's two issue datasets of the Jira baseline (80 rows: its joined single issues and its search
 * pages, with their lost round trips): a tolerance, a lost or missing row and a round trip lost under
 * one tokenizer are judged the same on them as on 1,640 rows, each compare reading a twentieth.
 */
const aloyIssues = narrowed(baseline, (x) => x.project === 'ALOY' && x.dataset === 'issues');
const ALOY_ISSUES = join(dir, 'aloy-issues.json');
writeFileSync(ALOY_ISSUES, JSON.stringify(aloyIssues));

/** A baseline (the Jira one unless told), changed: each test judges the unchanged one (the head) against it. */
function tightened(change: (r: BenchmarkResult) => void, from: BenchmarkResult = baseline): string {
  const copy: BenchmarkResult = structuredClone(from);
  change(copy);
  const file = join(dir, `tightened-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(file, JSON.stringify(copy));
  return file;
}

/** TOON rows 5% cheaper in the base, so the head regressed 5% there: every Jira one (the issue's case), or ALOY's issues'. */
const cheaperToon = (b: BenchmarkResult) => {
  for (const r of b.rows) if (r.format === 'toon') r.tokens = Math.floor(r.tokens * 0.95);
};
const jiraToon = tightened(cheaperToon);
const jiraToonRows = baseline.rows.filter((r) => r.format === 'toon');
const aloyToon = tightened(cheaperToon, aloyIssues);
const aloyToonRows = aloyIssues.rows.filter((r) => r.format === 'toon');

describe('devboy compare BASE HEAD', () => {
  it('a run of this checkout against the committed baseline: exit 0, a passing Markdown report', async () => {
    const run = join(dir, 'run.json');
    // A small project: what is compared is the run's own rows, whatever their number.
    const b = await runCli(['benchmark', '--project', 'artsy__emission', '--levels', 'minimal', '--runs', '1', '--export-json', run]);
    assert.equal(b.code, 0, b.stderr);
    const r = await runCli(['compare', BASELINE, run, '--markdown']);
    assert.equal(r.code, 0, r.stdout + r.stderr);
    assert.match(
      r.stdout,
      /^✅ \*\*Passed\*\*: no token count grew more than 0\.50%, no round trip lost, no row missing \(15 rows compared under 2 tokenizers, 3,850 base rows outside the head's scope\)\.$/m,
    );
    assert.match(r.stderr, /^devboy compare: PASSED: /);
  });

  it('a 5% TOON regression on the Jira corpus: exit 1, the summary first, each row once with both tokenizers', async () => {
    const r = await runCli(['compare', jiraToon, JIRA_BASELINE, '--markdown']);
    assert.equal(r.code, 1, r.stderr);
    const entries = jiraToonRows.filter((x) => x.tokenizer === 'o200k_base');
    const md = r.stdout;
    assert.match(
      md,
      new RegExp(`^❌ \\*\\*Failed\\*\\*: ${entries.length} rows grew more than 0\\.50% in tokens \\(820 rows compared`, 'm'),
    );
    // Ten seconds: verdict, chart and the format x level summary come before any row, and are short.
    const head = md.slice(0, md.indexOf('### Regressions'));
    assert.ok(head.split('\n').length < 45, `${head.split('\n').length} lines before the first row`);
    const summary = head.slice(head.indexOf('### Summary'));
    assert.deepEqual(
      [...summary.matchAll(/^\| (\S+) \| (\S+) \| \*\*/gm)].map((m) => `${m[1]} ${m[2]}`),
      ['toon raw', 'toon full', 'toon standard', 'toon minimal'],
    );
    assert.match(summary, /16 other format\/level cells unchanged/);
    // Each regressed row once (inline or folded), o200k_base and heuristic side by side.
    const rows = [
      ...md.matchAll(
        /^\| jira (\S+) (\S+): (.*?) \| (\S+) \| toon \| ([\d,]+) → ([\d,]+) \(\+[\d.]+%\) \| ([\d,]+) → ([\d,]+) \(\+[\d.]+%\) \|$/gm,
      ),
    ];
    assert.equal(rows.length, entries.length);
    assert.equal(new Set(rows.map((m) => `${m[3]} ${m[4]}`)).size, entries.length);
    assert.match(md, /<details><summary>\d+ more<\/summary>/);
    for (const source of mermaidBlocks(md)) await assert.doesNotReject((await mermaidParse())(source));
  });

  it('--max-regression: the same change passes above its largest growth and fails below it', async () => {
    // Floored small counts grew by more than 5% (e.g. 9 -> 8 tokens in the base is +12.5%).
    const largest = Math.max(...aloyToonRows.map((r) => (r.tokens / Math.floor(r.tokens * 0.95) - 1) * 100));
    const above = await runCli(['compare', aloyToon, ALOY_ISSUES, '--max-regression', (largest + 0.01).toFixed(2)]);
    assert.equal(above.code, 0, above.stdout);
    assert.match(above.stdout, /^PASSED: /m);
    assert.match(above.stdout, /^toon +raw /m, 'the change is still shown in the summary');
    const below = await runCli(['compare', aloyToon, ALOY_ISSUES, '--max-regression', (largest - 0.01).toFixed(2)]);
    assert.equal(below.code, 1, below.stdout);
    assert.match(below.stdout, /^FAILED: \d+ rows? grew more than/m);
  });

  it('a lost round trip fails; so does a row missing from the head; a regained one and a new row do not', async () => {
    const lossy = aloyIssues.rows.find((r) => !r.lossless)!;
    const lost = tightened((b) => {
      for (const r of b.rows) if (r.label === lossy.label && r.level === lossy.level && r.format === lossy.format) r.lossless = true;
    }, aloyIssues);
    const a = await runCli(['compare', lost, ALOY_ISSUES]);
    assert.equal(a.code, 1);
    assert.match(a.stdout, /^FAILED: 1 row stopped round-tripping/m);
    assert.match(a.stdout, new RegExp(`^Stopped round-tripping \\(1 row\\)\\n  ${lossy.level} ${lossy.format} `, 'm'));

    const gone = tightened((b) => b.rows.push({ ...b.rows[0]!, label: 'GET /repos/gone/away' }), aloyIssues);
    const m = await runCli(['compare', gone, ALOY_ISSUES, '--json']);
    assert.equal(m.code, 1);
    const c: Comparison = JSON.parse(m.stdout);
    assert.equal(c.schema, 'devboy.compare/1');
    assert.deepEqual(
      c.removed.map((x) => x.label),
      ['GET /repos/gone/away'],
    );
    assert.match(m.stderr, /^devboy compare: FAILED: 1 row is missing/);

    const back = await runCli(['compare', ALOY_ISSUES, gone]);
    assert.equal(back.code, 0, back.stdout);
    assert.match(back.stdout, /1 new/);
  });

  it('a round trip lost under one tokenizer only fails, naming the row and the tokenizer (jira ALOY issues, full, gcf)', async () => {
    // The committed baseline's real case: the o200k_base row of this entry does not round-trip (a page
    // split where that tokenizer's counts put it), the heuristic row does. A base where both did is gated.
    const aloy = (r: BenchmarkResult['rows'][number]) =>
      r.provider === 'jira' &&
      r.project === 'ALOY' &&
      r.dataset === 'issues' &&
      r.level === 'full' &&
      r.format === 'gcf' &&
      r.label.includes('startAt=0');
    const rows = aloyIssues.rows.filter(aloy);
    assert.deepEqual(
      rows.map((r) => [r.tokenizer, r.lossless]),
      [
        ['heuristic', true],
        ['o200k_base', false],
      ],
    );
    const both = tightened((b) => {
      for (const r of b.rows.filter(aloy)) {
        r.lossless = true;
        delete r.lossless_reason;
      }
    }, aloyIssues);
    // Read for what it says, unfolded (test/report-widths.test.ts checks how it fits 100 columns).
    const r = await runCli(['compare', both, ALOY_ISSUES], { terminal: { columns: 1000 } });
    assert.equal(r.code, 1, r.stdout);
    assert.match(r.stdout, /^FAILED: 1 row stopped round-tripping \(under o200k_base\)/m);
    assert.match(
      r.stdout,
      /^Stopped round-tripping \(1 row\)\n {2}full gcf jira ALOY issues: GET \S+startAt=0\S*: page 3 of 7: .* \[o200k_base\]$/m,
    );
    const j = await runCli(['compare', both, ALOY_ISSUES, '--json']);
    assert.equal(j.code, 1);
    const c: Comparison = JSON.parse(j.stdout);
    assert.deepEqual(
      c.lost_round_trips.map((x) => [x.project, x.level, x.format, x.tokenizers, x.reason]),
      [['ALOY', 'full', 'gcf', ['o200k_base'], rows[1]!.lossless_reason]],
    );
    const cell = c.summary.find((x) => x.format === 'gcf' && x.level === 'full' && x.tokenizer === 'o200k_base')!;
    assert.equal(cell.lost_round_trips, 1);

    // And back: the head where both round-trip regained it under o200k_base only, and passes.
    const back = await runCli(['compare', ALOY_ISSUES, both, '--json']);
    assert.equal(back.code, 0, back.stdout);
    assert.deepEqual(
      (JSON.parse(back.stdout) as Comparison).gained_round_trips.map((x) => x.tokenizers),
      [['o200k_base']],
    );
  });

  it('bad input: a file that is not a result exits 1, a missing file and a bad tolerance exit 2, each one line', async () => {
    const notResult = join(dir, 'not.json');
    writeFileSync(notResult, '{"schema": "other"}');
    const cases: [string[], number, RegExp][] = [
      [['compare', notResult, BASELINE], 1, /not\.json: not a devboy benchmark result/],
      [['compare', join(dir, 'missing.json'), BASELINE], 2, /missing\.json: no such file/],
      [['compare', BASELINE, BASELINE, '--max-regression', 'lots'], 2, /--max-regression must be a non-negative number/],
      [['compare', BASELINE], 2, /head/],
    ];
    for (const [args, code, message] of cases) {
      const r = await runCli(args);
      assert.equal(r.code, code, `${args.join(' ')}: ${r.stderr}`);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, message);
      assert.equal(r.stdout, '');
    }
  });
});

describe('devboy compare: timing of real runs', () => {
  // Big lists at raw level: every call takes longer than the 1 ms time budget, so each cell is
  // timed once, as the heavy cells of a default run are. Timed once, a spread has no width.
  const scope = [
    '--project',
    'ALOY',
    '--dataset',
    'issues',
    '--levels',
    'raw',
    '--formats',
    'json-compact,stc',
    '--tokenizers',
    'heuristic',
  ];
  const file = (name: string) => join(dir, `timing-${name}.json`);
  const bench = async (name: string, ...extra: string[]) => {
    const r = await runCli(['benchmark', ...scope, ...extra, '--export-json', file(name)]);
    assert.equal(r.code, 0, r.stderr);
    return JSON.parse(readFileSync(file(name), 'utf8')) as BenchmarkResult;
  };

  it('two default runs of the same code: no timing flagged, run counts shown, and too few runs to rank said', async () => {
    await bench('a');
    await bench('b');
    const r = await runCli(['compare', file('a'), file('b')]);
    assert.equal(r.code, 0, r.stderr);
    const json = JSON.parse((await runCli(['compare', file('a'), file('b'), '--json'])).stdout) as Comparison;
    assert.ok(json.timing.per_format.length > 0);
    assert.ok(json.timing.per_format.every((t) => t.flag === null));
    // stc's calls take tens of milliseconds on this data: one run each, in either run.
    for (const op of ['encode', 'decode'])
      assert.ok(json.timing.per_format.some((t) => t.format === 'stc' && t.op === op && t.too_few_runs && t.runs.base[0] < 3));
    const timing = r.stdout.slice(r.stdout.indexOf('Timing'));
    assert.match(timing, /runs/);
    // Runs per cell depend on how fast the machine is at that moment (1, or 1-3 when some calls were quick).
    assert.match(timing, /^stc +encode .* 1(-[23])?→1(-[23])? .* few runs$/m);
    assert.match(timing, /too few runs to rank/);
    assert.doesNotMatch(timing, / (slower|faster)$/m);
    const md = (await runCli(['compare', file('a'), file('b'), '--markdown'])).stdout;
    assert.match(md, /too few runs to rank/);
    assert.match(md, /\| stc \| encode \|.*\| 1(-[23])?→1(-[23])? \|.*\| few runs \|/);
  });

  it('a planted slowdown in a run timed three times a cell is flagged slower; the run against itself is not', async () => {
    const run = await bench('c', '--time-budget', '0', '--runs', '3');
    const slowed: BenchmarkResult = structuredClone(run);
    for (const r of slowed.rows.filter((x) => x.format === 'stc')) {
      const t = r.encode_spread_ms[1] * 4;
      Object.assign(r, { encode_ms: t, encode_spread_ms: [t * 0.9, t * 1.1] });
    }
    writeFileSync(file('slowed'), JSON.stringify(slowed));
    const same = JSON.parse((await runCli(['compare', file('c'), file('c'), '--json'])).stdout) as Comparison;
    assert.ok(same.timing.per_format.every((t) => t.flag === null && !t.too_few_runs));
    const r = await runCli(['compare', file('c'), file('slowed')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^stc +encode .* 3→3 .* slower$/m);
    assert.doesNotMatch(r.stdout, /too few runs to rank/);
  });
});
