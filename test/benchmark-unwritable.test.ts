import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { checkResultFields } from '../src/benchmark/validate-result.js';
import type { JsonObject } from '../src/json/types.js';
import { compareResults } from '../src/compare/compare.js';
import { mergeResults } from '../src/merge/merge.js';
import { EXPORTERS, COMPARE_EXPORTERS } from '../src/report/index.js';
import { runCli, type CliResult } from './helpers/cli.js';
import { sourceIssuesAndPulls } from './helpers/hostile-corpus.js';

// One format that cannot write one value aborted the whole benchmark: a corpus whose one issue
// title holds a lone surrogate made `benchmark --corpus DIR` exit 1 ("toon would turn it into
// U+FFFD"). stats lists such a format under "Not measured" and goes on; the benchmark now does the
// same: that dataset x level x format cell is not measured, listed with its reason in every
// report, and every other cell is measured.

const root = mkdtempSync(join(tmpdir(), 'devboy-unwritable-'));
after(() => rmSync(root, { recursive: true, force: true }));

const LONE = /lone surrogate \\ud800 at \$\[0\]\.title cannot be written as UTF-8/;
const LEVELS = ['raw', 'full', 'standard', 'minimal'];

/** A corpus of two projects: `acme__lone` (3 issues, the first titled with a lone surrogate) and `acme__ok` (3 plain issues). */
function corpus(): string {
  const dir = join(root, 'corpus');
  const { issues } = sourceIssuesAndPulls();
  const put = (project: string, body: JsonObject[], title?: string) => {
    mkdirSync(join(dir, 'github', project), { recursive: true });
    const repo = project.split('__')[1]!;
    let text = JSON.stringify({
      provider: 'github',
      project,
      request: { method: 'GET', url: `https://api.github.com/repos/acme/${repo}/issues?state=all` },
      response: { status: 200, headers: { 'content-type': 'application/json; charset=utf-8' }, body },
      provenance: {},
    });
    // JSON.stringify writes a lone surrogate as its escape; the marker makes sure it is the raw escape text.
    if (title) text = text.replace(JSON.stringify(title), '"\\ud800"');
    writeFileSync(join(dir, 'github', project, `000_GET_repos_acme_${repo}_issues.json`), text);
  };
  put('acme__lone', [{ ...issues[0]!, title: 'LONE-MARKER' }, issues[1]!, issues[2]!], 'LONE-MARKER');
  put('acme__ok', issues.slice(3, 6));
  return dir;
}

describe('a format that cannot write a value: that cell is not measured, with its reason, and the run goes on', () => {
  const dir = corpus();
  const json = join(root, 'run.json');
  const markdown = join(root, 'run.md');
  let run: CliResult;
  let result: BenchmarkResult;

  before(async () => {
    run = await runCli(['benchmark', '--corpus', dir, '--runs', '1', '--details', '--export-json', json, '--export-markdown', markdown], {
      terminal: { columns: 400 },
    });
    // Read in the tests, so that a failed run is reported by the first with its stderr.
  });

  before(() => {
    if (run.code === 0) result = JSON.parse(readFileSync(json, 'utf8')) as BenchmarkResult;
  });

  it('exits 0 and measures every other cell', () => {
    assert.equal(run.code, 0, run.stderr);
    const formats = result.settings.formats;
    assert.deepEqual(result.settings.levels, LEVELS);
    for (const d of result.datasets) {
      for (const level of LEVELS) {
        for (const format of formats) {
          const rows = result.rows.filter((r) => r.project === d.project && r.level === level && r.format === format);
          const unwritable = d.project === 'acme__lone' && (format === 'toon' || format === 'gcf');
          assert.equal(rows.length, unwritable ? 0 : result.tokenizers.length, `${d.project} ${level} ${format}`);
        }
      }
    }
  });

  it('--json: unmeasured_cells names each cell (dataset, level, format) with its reason; the result checks', () => {
    checkResultFields(result);
    const cells = result.unmeasured_cells ?? [];
    assert.deepEqual(
      cells.map((c) => `${c.project} ${c.dataset} ${c.level} ${c.format}`),
      LEVELS.flatMap((level) => [`acme__lone issues ${level} toon`, `acme__lone issues ${level} gcf`]),
    );
    for (const c of cells) {
      assert.equal(c.label, 'GET /repos/acme/lone/issues?state=all');
      assert.match(c.reason, LONE);
      assert.match(c.reason, new RegExp(`${c.format} would turn it into U\\+FFFD`));
    }
    // A cell listed as not measured and measured all the same is refused when a result is read back.
    const planted = structuredClone(result);
    planted.unmeasured_cells!.push({ ...cells[0]!, project: 'acme__ok', label: 'GET /repos/acme/ok/issues?state=all' });
    assert.throws(() => checkResultFields(planted), /unmeasured_cells\[8\]/);
  });

  it('no format is ranked on totals it was not measured on: toon and gcf win no level they lack a dataset of', () => {
    for (const w of result.winner_by_tokenizer ?? [])
      for (const x of w.winners)
        assert.ok(x.format !== 'toon' && x.format !== 'gcf', `${w.dataset} ${w.level} ${x.tokenizer}: ${x.format}`);
    const totals = EXPORTERS.table.render({ result }, { color: false, width: 400 });
    assert.match(totals, /^ {2}pages +\d+ +\d+ +\d+, 1 not measured +\d+ +\d+, 1 not measured$/m);
    assert.doesNotMatch(totals, /^Best lossless format per level.*\b(toon|gcf)\b/m);
  });

  it('terminal: one line counts the cells, --details lists each with its reason', () => {
    const text = run.stdout;
    assert.match(
      text,
      /^Not measured: 8 dataset\/level\/format cells a format cannot write \(toon 4, gcf 4\); each with its reason below\.$/m,
    );
    for (const level of LEVELS)
      for (const format of ['toon', 'gcf']) {
        // The terminal shows a backslash of the data as two (src/escape/terminal.ts).
        const line = new RegExp(`^ {2}github acme__lone issues ${level} ${format}: lone surrogate \\\\\\\\ud800 at`, 'm');
        assert.match(text, line, `${level} ${format}`);
      }
    const plain = EXPORTERS.table.render({ result }, { color: false, width: 400 });
    assert.match(
      plain,
      /^Not measured: 8 dataset\/level\/format cells a format cannot write \(toon 4, gcf 4\); each with its reason under --details \(or --json\)\.$/m,
    );
  });

  it('Markdown: a section lists each cell with its reason', () => {
    const text = readFileSync(markdown, 'utf8');
    assert.match(text, /^### Not measured$/m);
    assert.match(text, /^8 dataset\/level\/format cells a format cannot write \(toon 4, gcf 4\)\.$/m);
    for (const level of LEVELS)
      assert.match(
        text,
        new RegExp(`^- github \`acme__lone\` issues: \`GET /repos/acme/lone/issues\\?state=all\` ${level} toon: \`lone surrogate`, 'm'),
      );
  });

  it('merge carries the cells of every part; compare carries the head cells and names why a row went missing', async () => {
    const ok = join(root, 'ok.json');
    const r = await runCli(['benchmark', '--corpus', dir, '--project', 'acme__ok', '--runs', '1', '--levels', 'minimal', '-o', ok]);
    assert.equal(r.code, 0, r.stderr);
    const lone = join(root, 'lone.json');
    const s = await runCli(['benchmark', '--corpus', dir, '--project', 'acme__lone', '--runs', '1', '--levels', 'minimal', '-o', lone]);
    assert.equal(s.code, 0, s.stderr);
    const parts = [ok, lone].map((file) => ({ file, result: JSON.parse(readFileSync(file, 'utf8')) as BenchmarkResult }));
    assert.deepEqual(parts[0]!.result.unmeasured_cells, []);
    const merged = mergeResults(parts);
    checkResultFields(merged);
    assert.deepEqual(merged.unmeasured_cells, parts[1]!.result.unmeasured_cells);
    assert.equal(merged.unmeasured_cells?.length, 2);

    // A base that measured toon on the dataset (planted: stc's rows under toon's name); the head could not.
    const head = parts[1]!.result;
    const base = structuredClone(head);
    base.rows.push(...base.rows.filter((x) => x.format === 'stc').map((x) => ({ ...x, format: 'toon' as const })));
    base.unmeasured_cells = base.unmeasured_cells!.filter((c) => c.format !== 'toon');
    const comparison = compareResults({ file: 'base.json', result: base }, { file: 'head.json', result: head });
    assert.equal(comparison.passed, false, 'a row the head no longer measures is still missing');
    assert.equal(comparison.removed.length, 1);
    assert.match(comparison.removed[0]!.reason ?? '', /^not measured in the head: lone surrogate \\ud800/);
    assert.deepEqual(
      comparison.not_measured.map((c) => `${c.level} ${c.format}`),
      ['minimal toon', 'minimal gcf'],
    );
    const table = COMPARE_EXPORTERS.table.render(comparison, { color: false, width: 400 });
    assert.match(table, /not measured in the head: lone surrogate \\\\ud800/);
    assert.match(table, /^Not measured in the head: 2 dataset\/level\/format cells a format cannot write \(toon 1, gcf 1\)/m);
    const md = COMPARE_EXPORTERS.markdown.render(comparison, {});
    assert.match(md, /not measured in the head: lone surrogate/);
  });

  it('a savings baseline that cannot write the value: every format of that cell is not measured, and says why', async () => {
    const out = join(root, 'csv.json');
    const args = ['benchmark', '--corpus', dir, '--runs', '1', '--levels', 'minimal', '--formats', 'stc', '--savings-baseline', 'csv'];
    const r = await runCli([...args, '-o', out]);
    assert.equal(r.code, 0, r.stderr);
    const csv = JSON.parse(readFileSync(out, 'utf8')) as BenchmarkResult;
    checkResultFields(csv);
    // The savings baseline is measured as a format of its own.
    assert.deepEqual(csv.settings.formats, ['stc', 'csv']);
    assert.deepEqual(
      csv.rows.map((x) => `${x.project} ${x.format}`),
      ['acme__ok stc', 'acme__ok csv', 'acme__ok stc', 'acme__ok csv'],
    );
    assert.deepEqual(
      (csv.unmeasured_cells ?? []).map((c) => `${c.project} ${c.level} ${c.format}: ${c.reason.slice(0, 40)}`),
      [
        'acme__lone minimal stc: the savings baseline csv cannot write it',
        'acme__lone minimal csv: lone surrogate \\ud800 at $[0].title cann',
      ],
    );
    assert.match(csv.unmeasured_cells![0]!.reason, /^the savings baseline csv cannot write it: lone surrogate \\ud800 at \$\[0\]\.title/);
  });
});
