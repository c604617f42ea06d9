import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseBenchmarkResult } from '../src/benchmark/read-result.js';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { compareResults, type Comparison } from '../src/compare/compare.js';
import { datasetTitles, summarize } from '../src/report/benchmark-summary.js';
import { displayWidth } from '../src/escape/terminal.js';
import { COMPARE_EXPORTER_NAMES, COMPARE_EXPORTERS, EXPORTER_NAMES, EXPORTERS, type ReportInput } from '../src/report/index.js';
import { FIXTURES } from './helpers/paths.js';

// Snapshot tests in the manner of hyperfine's exporter tests: small benchmark results, committed
// as data (real runs over part of the embedded corpus), are rendered by every exporter in-process
// and compared byte for byte with their golden files. A change to an exporter's output is a
// reviewed change to the golden file (UPDATE_GOLDEN=1 rewrites them).

const DIR = join(FIXTURES, 'report');
const read = (name: string) => parseBenchmarkResult(readFileSync(join(DIR, name), 'utf8'), name);
const result = read('small-result.json');
/** The same kind of run with --session: the dedup and combined savings of a played-back agent session. */
const withSession = read('small-session-result.json');
/** A run under several model families: winner by tokenizer family and the explainers' break-even. */
const families = read('small-families-result.json');

/**
 * The run judged against a baseline where every TOON row cost 5% fewer tokens (so TOON regressed),
 * STC at the minimal level 3% more (so it improved), one lossy row was lossless, one baseline row
 * is gone from the run, the run has rows the baseline lacks, and TOON encoded twice as fast.
 */
function tightened(): BenchmarkResult {
  const base: BenchmarkResult = structuredClone(result);
  for (const r of base.rows) {
    if (r.format === 'toon') {
      r.tokens = Math.floor(r.tokens * 0.95);
      r.encode_ms /= 2;
      r.encode_spread_ms = [r.encode_spread_ms[0] / 2, r.encode_spread_ms[1] / 2];
    }
    if (r.format === 'stc' && r.level === 'minimal') r.tokens = Math.ceil(r.tokens * 1.03);
  }
  const lossy = base.rows.find((r) => !r.lossless)!;
  lossy.lossless = true;
  delete lossy.lossless_reason;
  base.rows.push({ ...base.rows[0]!, label: 'GET /repos/gone/away' });
  const dropped = base.rows.filter((r) => r.format === 'gcf' && r.level === 'raw' && r.dataset === 'comments');
  base.rows = base.rows.filter((r) => !dropped.includes(r));
  return base;
}

const regression = compareResults({ file: 'results/tightened.json', result: tightened() }, { file: 'this run', result });
const unchanged = compareResults({ file: 'results/baseline.json', result: structuredClone(result) }, { file: 'this run', result });

const CASES: { name: string; input: ReportInput }[] = [
  { name: 'result', input: { result } },
  { name: 'session', input: { result: withSession } },
  { name: 'families', input: { result: families } },
  { name: 'regression', input: { result, comparison: regression } },
];

const COMPARE_CASES: { name: string; input: Comparison }[] = [
  { name: 'unchanged', input: unchanged },
  { name: 'regression', input: regression },
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

  for (const name of COMPARE_EXPORTER_NAMES) {
    for (const c of COMPARE_CASES) {
      it(`compare ${name}: ${c.name}`, () => {
        const exporter = COMPARE_EXPORTERS[name];
        const actual = exporter.render(c.input, { color: false });
        assert.equal(actual, golden(`golden-compare-${c.name}-${name}${exporter.extension}`, actual));
      });
    }
  }

  it('the JSON exporter writes the result back unchanged (a saved run is the same run)', () => {
    const text = EXPORTERS.json.render({ result });
    assert.deepEqual(JSON.parse(text), result);
    assert.equal(text, readFileSync(join(DIR, 'small-result.json'), 'utf8'));
  });

  it('the regression case really regressed: token growth, a lost round trip and a missing row; improvements and new rows named', () => {
    assert.equal(regression.passed, false);
    const toonEntries = result.rows.filter((x) => x.format === 'toon' && x.tokenizer === 'o200k_base').length;
    assert.equal(regression.counts.regressions, toonEntries);
    assert.equal(regression.counts.lost_round_trips, 1);
    assert.equal(regression.counts.removed, 1);
    assert.ok(regression.counts.improvements > 0);
    assert.ok(regression.counts.added > 0);
    assert.equal(unchanged.passed, true);
  });

  it('the table is a summary that fits a 100-column terminal and a couple of screens, however many datasets; --details adds every dataset', () => {
    const many: BenchmarkResult = structuredClone(result);
    for (let k = 1; k < 20; k++) {
      for (const d of result.datasets) many.datasets.push({ ...d, label: `${d.label}&copy=${k}` });
      for (const r of result.rows) many.rows.push({ ...r, label: `${r.label}&copy=${k}` });
    }
    const render = (r: BenchmarkResult, details: boolean, width?: number) =>
      EXPORTERS.table.render({ result: r }, { color: false, details, ...(width ? { width } : {}) }).split('\n');
    const lines = (r: BenchmarkResult, details: boolean) => render(r, details).length;
    assert.ok(lines(result, false) <= 80, `${lines(result, false)} lines`);
    // Several tokenizers add the winner by family and the break-even, a row per kind each.
    assert.ok(lines(families, false) <= 100, `${lines(families, false)} lines under several tokenizers`);
    // Larger totals may wrap a cell or two more; the summary does not grow with the datasets.
    assert.ok(lines(many, false) <= lines(result, false) + 6, `${lines(many, false)} lines for 20 times the datasets`);
    assert.ok(lines(many, true) > lines(result, true) + 19 * result.datasets.length);
    for (const [r, width] of [
      [result, 100],
      [families, 100],
      [withSession, 80],
    ] as const) {
      for (const line of render(r, false, width)) assert.ok(displayWidth(line) <= width, `${displayWidth(line)} > ${width}: ${line}`);
    }
    const summary = EXPORTERS.table.render({ result }, { color: false });
    for (const section of [/^Recommendation: /m, /^Why published numbers differ: /m, /^Speed: /m, /^Heuristic \(bytes \/ 3\.5\): off by /m])
      assert.match(summary, section);
  });

  it('the summary opens with the answer under the named tokenizer: the best lossless format per level vs the baseline, and what the level saves', () => {
    const [first, second, third] = EXPORTERS.table.render({ result }, { color: false }).split('\n');
    const s = summarize(result);
    assert.match(first!, /^Best lossless format per level \(o200k_base tokens vs json_compact\): /);
    for (const t of s.totals) {
      const cell = t.cells.find((c) => c.format === t.winner)!;
      const text = cell.saving > 0 ? `${t.level} ${t.winner} -${(cell.saving * 100).toFixed(1)}%` : `${t.level} ${t.winner} (none beats`;
      assert.ok(`${first} ${second}`.replace(/\s+/g, ' ').includes(text), `${text} in ${first} ${second}`);
    }
    const jc = (level: string) => s.totals.find((t) => t.level === level)!.cells.find((c) => c.format === 'json-compact')!.tokens;
    const minimal = `minimal -${((1 - jc('minimal') / jc('raw')) * 100).toFixed(1)}%`;
    assert.match(third!, /^The level saves more \(json-compact vs raw\): /);
    assert.ok(third!.includes(minimal), `${minimal} in ${third}`);
    // An edge under 1% is called what it is.
    const tie: BenchmarkResult = structuredClone(result);
    for (const r of tie.rows.filter((x) => x.level === 'raw' && ['toon', 'stc', 'gcf'].includes(x.format))) {
      r.tokens = Math.round(r.savings.baseline_tokens * (r.format === 'gcf' ? 0.995 : 1.01));
      r.savings.encoder = 1 - r.tokens / r.savings.baseline_tokens;
    }
    assert.match(
      EXPORTERS.table.render({ result: tie }, { color: false }).split('\n').slice(0, 3).join(' '),
      /under 1% at raw: about a tie/,
    );
  });

  it("compare --markdown stays under GitHub's 65,536-character comment limit: verdict and changed cells first, rows cut with a count and a pointer", () => {
    // Ten copies of the run: the uncut report is about 170,000 characters, 2.5 times the limit.
    const big: BenchmarkResult = structuredClone(result);
    for (let k = 1; k < 10; k++) {
      for (const d of result.datasets) big.datasets.push({ ...d, label: `${d.label}&copy=${k}` });
      for (const r of result.rows) big.rows.push({ ...r, label: `${r.label}&copy=${k}` });
    }
    const base: BenchmarkResult = structuredClone(big);
    for (const r of base.rows) r.tokens = Math.floor(r.tokens * 0.9);
    const c = compareResults({ file: 'base.json', result: base }, { file: 'head.json', result: big });
    const whole = COMPARE_EXPORTERS.markdown.render(c, { maxChars: Number.POSITIVE_INFINITY });
    assert.ok(whole.length > 65_536, `the uncut report is ${whole.length} characters`);
    const md = COMPARE_EXPORTERS.markdown.render(c, { fullReport: 'https://ci.example/run/1' });
    assert.ok(md.length <= 65_536, `${md.length} characters`);
    assert.match(md, /^<!-- devboy compare -->\n## devboy compare\n\n❌ \*\*Failed\*\*/);
    assert.ok(md.indexOf('### Summary') < md.indexOf('### Regressions'));
    const cut =
      /… ([\d,]+) more rows not shown, to keep this report under GitHub's 65,536-character comment limit; the full comparison: <https:\/\/ci\.example\/run\/1>\./.exec(
        md,
      );
    assert.ok(cut, md.slice(-2000));
    const shown = (md.match(/^\| `?github/gm) ?? []).length;
    assert.ok(shown > 50, `${shown} rows shown`);
    // Every regression is either shown or counted.
    const regressionsShown = md.slice(md.indexOf('### Regressions'), md.indexOf('### Stopped') > 0 ? md.indexOf('### Stopped') : undefined);
    const rowsShown = (regressionsShown.match(/^\| github/gm) ?? []).length / 1;
    const counted = Number(/### Regressions[\s\S]*?… ([\d,]+) more rows/.exec(md)![1]!.replace(/,/g, ''));
    const headCopies = (regressionsShown.match(/^\| dataset/gm) ?? []).length;
    assert.ok(headCopies >= 1);
    assert.equal(rowsShown + counted, c.regressions.length);
  });

  it('every dataset title names its request, so no two are alike', () => {
    const titles = datasetTitles(result.datasets);
    assert.equal(new Set(titles).size, titles.length);
    for (const [i, d] of result.datasets.entries()) assert.ok(titles[i]!.endsWith(d.label), titles[i]);
  });
});
