import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { rowKey, type BenchmarkResult } from '../src/benchmark/schema.js';
import { FORMAT_METADATA_FIELDS } from '../src/metadata/format-metadata.js';
import { candidateFormats, FORMAT_INFO } from '../src/formats/info.js';
import { FORMAT_NAMES as ALL } from '../src/formats/types.js';

/** What a run measures unless --formats says otherwise. */
const FORMAT_NAMES = candidateFormats();
import { LEVELS } from '../src/trim/levels.js';
import { runCli, type CliResult } from './helpers/cli.js';
import { corpusDir, REPO_ROOT } from './helpers/paths.js';
import { assertCsvMatches } from './helpers/csv.js';

const dir = mkdtempSync(join(tmpdir(), 'devboy-bench-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const corpus = corpusDir();
// No --corpus: the embedded corpus is the default source.
// A project of one small dataset (three merge requests, joined) that GCF does not round-trip at the
// full and standard levels (key order): every field of a row, lossy ones included, in a short run.
const narrow = ['--project', 'dev.gitlab.org__gitlab__gitlabhq', '--runs', '1'];
// Reports of more than one dataset: a project of three small ones, all lossless.
const emission = ['--project', 'artsy__emission', '--runs', '1'];
const runFile = join(dir, 'run.json');
/** The smaller of betamax's two recorded issues pages (13 items; the other has 83). */
const SMALL_ISSUES_PAGE = '001_GET_repos_betamaxpy_betamax_issues_direction_asc_per_page_100.json';
let run: BenchmarkResult;

before(async () => {
  const r = await runCli(['benchmark', ...narrow, '--json', '-o', runFile]);
  assert.equal(r.code, 0, r.stderr);
  run = JSON.parse(r.stdout);
  assert.equal(readFileSync(runFile, 'utf8'), r.stdout, '-o writes the same JSON as stdout');
});

describe('devboy benchmark --json: schema devboy.benchmark/1 (docs/benchmark-schema.md)', () => {
  it('has the documented top-level fields, datasets and rows', () => {
    assert.equal(run.schema, 'devboy.benchmark/1');
    assert.deepEqual(run.source, { kind: 'corpus', corpus: 'embedded', target: 'dev.gitlab.org__gitlab__gitlabhq' });
    for (const k of ['devboy', 'source', 'settings', 'tokenizers', 'formats', 'datasets', 'rows', 'heuristic_bias', 'lossy'])
      assert.ok(k in run, k);
    assert.deepEqual(
      run.tokenizers.map((t) => [t.name, t.estimate]),
      [
        ['heuristic', true],
        ['o200k_base', false],
      ],
    );
    assert.deepEqual(run.settings.formats, FORMAT_NAMES);
    assert.deepEqual(run.settings.levels, LEVELS);
    assert.deepEqual(run.settings.timing, { mode: 'adaptive', max_runs: 1, budget_ms: 1 });
    for (const d of run.datasets) {
      assert.deepEqual(Object.keys(d).sort(), ['dataset', 'items', 'label', 'pagination', 'project', 'provider', 'sort']);
      assert.equal(d.provider, 'gitlab');
      assert.ok(d.items > 0);
    }
  });

  it('every row has the documented fields with the documented types', () => {
    assert.equal(run.rows.length, run.datasets.length * LEVELS.length * FORMAT_NAMES.length * 2);
    for (const r of run.rows) {
      for (const k of ['provider', 'project', 'dataset', 'label', 'level', 'format', 'tokenizer'])
        assert.equal(typeof (r as never)[k], 'string', k);
      for (const k of ['tokens', 'bytes', 'pages', 'encode_ms', 'decode_ms'])
        assert.ok(Number.isFinite((r as never)[k]) && (r as never)[k] >= 0, k);
      assert.ok(Number.isInteger(r.tokens) && Number.isInteger(r.pages) && r.pages >= 1);
      assert.ok(r.encode_spread_ms[0] <= r.encode_ms && r.encode_ms <= r.encode_spread_ms[1]);
      // Adaptive timing (settings.timing): at least one timed run and at most --runs (0: a decoder that rejected the text).
      assert.equal(r.encode_runs, 1);
      assert.ok(r.decode_runs === 1 || (r.decode_runs === 0 && !r.lossless));
      assert.equal(typeof r.lossless, 'boolean');
      if (!r.lossless) assert.equal(typeof r.lossless_reason, 'string');
      // What a lossy row lost, value by value; nothing on a lossless one.
      if (r.lossless) assert.equal(r.loss, undefined);
      else assert.ok(r.loss && r.loss.lost <= r.loss.values && r.loss.paths.length > 0, JSON.stringify(r.loss));
      assert.deepEqual(Object.keys(r.savings).sort(), ['baseline', 'baseline_tokens', 'combined', 'dedup', 'encoder', 'vs']);
      assert.deepEqual(Object.keys(r.metadata).sort(), [...FORMAT_METADATA_FIELDS].sort());
    }
  });
});

describe('devboy benchmark: reports', () => {
  it('the table names the tokenizer and baseline of its figures and marks lossy cells', async () => {
    // The standard level holds the project's GCF key-order loss.
    const r = await runCli(['benchmark', ...narrow, '--levels', 'standard', '--details']);
    assert.equal(r.code, 0, r.stderr);
    // Paragraphs fold at 100 columns (one tokenizer a line): read them unfolded.
    const text = r.stdout.replace(/\n {2,}(?=\S)/g, ' ');
    assert.match(text, /^tokenizers: heuristic \(.*an estimate.*\); o200k_base \(gpt-tokenizer/m);
    assert.match(r.stdout, /^Totals over 1 dataset: o200k_base tokens; change vs json_compact/m);
    assert.match(r.stdout, /^Heuristic \(bytes \/ 3\.5\) vs real tokenizer/m);
    assert.match(
      r.stdout,
      /^gitlab dev\.gitlab\.org__gitlab__gitlabhq merge_requests, 3 items: GET \/api\/v4\/projects\/gitlab%2Fgitlabhq\/merge_requests\/2387 /m,
    );
    assert.match(r.stdout, /^Not lossless: \d+ dataset\/level\/format cells? \(/m);
    assert.match(r.stdout, /gcf key order changed at \$\[\d+\]/);
  });

  it('--formats all --savings-baseline yaml: every format at every level, what the lossy ones lose, the answer against YAML', async () => {
    // One run for both views: the JSON export and the table on stdout come from the same measurement.
    // Every format's pipeline on one page of GitHub issues, the smaller of betamax's two lists.
    const json = join(dir, 'all-formats.json');
    const onePage = join(dir, 'one-page-corpus');
    const page = join('github', 'betamaxpy__betamax', SMALL_ISSUES_PAGE);
    mkdirSync(join(onePage, page, '..'), { recursive: true });
    copyFileSync(join(corpus, page), join(onePage, page));
    const table = await runCli([
      'benchmark',
      '--corpus',
      onePage,
      '--dataset',
      'issues',
      '--runs',
      '1',
      '--levels',
      'full,minimal',
      '--formats',
      'all',
      '--savings-baseline',
      'yaml',
      '--export-json',
      json,
    ]);
    assert.equal(table.code, 0, table.stderr);
    const doc = JSON.parse(readFileSync(json, 'utf8')) as BenchmarkResult;
    assert.deepEqual(doc.settings.formats, ALL);
    assert.equal(doc.settings.savings_baseline, 'yaml');
    for (const format of ALL) {
      for (const level of ['full', 'minimal'] as const) {
        const rows = doc.rows.filter((x) => x.format === format && x.level === level && x.tokenizer === 'o200k_base');
        assert.equal(rows.length, 1, `${format} ${level}`);
        for (const row of rows) {
          assert.ok(row.tokens > 0 && row.pages >= 1);
          assert.equal(row.savings.baseline, 'yaml');
          const yaml = doc.rows.find((x) => rowKey(x) === rowKey({ ...row, format: 'yaml' }))!;
          assert.equal(row.savings.baseline_tokens, yaml.tokens);
          if (!row.lossless) assert.ok(row.loss!.paths.length > 0, `${format} ${level} ${row.label}`);
        }
      }
    }
    for (const format of ALL.filter((f) => FORMAT_INFO[f].roundTrip === 'lossy'))
      assert.ok(
        doc.rows.some((x) => x.format === format && x.loss && x.loss.share > 0),
        `${format} lost nothing`,
      );
    // A CSV of GitHub issues at full level: the labels (a list) come back as JSON text.
    const csv = doc.rows.find((x) => x.format === 'csv' && x.level === 'full' && x.dataset === 'issues')!;
    assert.ok(
      csv.loss!.paths.some((p) => p.path === 'labels' && p.what === 'type changed: list -> string'),
      JSON.stringify(csv.loss),
    );
    assert.ok(doc.lossy.some((l) => l.format === 'csv' && l.loss?.share === csv.loss!.share));

    // Lines are wrapped at the terminal's width: only their starts are matched.
    assert.match(table.stdout, /^Answer: against your YAML, (json|json-compact|toon|stc|gcf) (saves|costs) /m);
    assert.match(table.stdout, /^What the lossy formats lose \(o200k_base rows; /m);
    assert.match(table.stdout, /^ {2}csv full: 1 of 1 dataset lossy, [\d.]+% of their /m);
  });

  it('--markdown gives a CI summary with totals, bias, round trips and folded details', async () => {
    const r = await runCli(['benchmark', ...emission, '--markdown', '--levels', 'standard,minimal', '--formats', 'json-compact,toon,gcf']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^## devboy benchmark$/m);
    assert.match(r.stdout, /^### Totals \(o200k_base tokens; change vs json_compact/m);
    assert.match(r.stdout, /^\| level \| json-compact \| toon \| gcf \|$/m);
    assert.match(r.stdout, /^### Round trips$/m);
    assert.match(r.stdout, /<details><summary>Per dataset \(3\)/);
  });
});

describe('devboy benchmark --baseline: the CI regression gate, through devboy compare', () => {
  it('passes on the committed results/baseline.json (a narrowed run compares only its own rows)', async () => {
    // Read unfolded, for what it says (test/report-widths.test.ts checks how it fits).
    const r = await runCli(['benchmark', ...emission, '--levels', 'minimal', '--baseline', join(REPO_ROOT, 'results', 'baseline.json')], {
      terminal: { columns: 1000 },
    });
    assert.equal(r.code, 0, r.stdout + r.stderr);
    // 3 datasets x 1 level x every format, each under 2 tokenizers.
    assert.match(r.stdout, /^devboy compare: .*baseline\.json .* -> this run /m);
    assert.match(r.stdout, new RegExp(`^PASSED: .*\\(${3 * FORMAT_NAMES.length} rows compared under 2 tokenizers`, 'm'));
  });

  it('fails with exit 1 on a baseline with lower token counts, naming each row once with both tokenizers', async () => {
    // Three datasets, so that each row must be found under its own.
    const scope = [...emission, '--levels', 'raw', '--formats', 'toon'];
    const measured = join(dir, 'lower.json');
    const b = await runCli(['benchmark', ...scope, '--export-json', measured]);
    assert.equal(b.code, 0, b.stderr);
    const base: BenchmarkResult = JSON.parse(readFileSync(measured, 'utf8'));
    const now = new Map(base.rows.map((x) => [rowKey(x), x.tokens]));
    const lowered = base.rows;
    for (const r of lowered) r.tokens = Math.floor(r.tokens * 0.95);
    writeFileSync(measured, JSON.stringify(base));
    const r = await runCli(['benchmark', ...scope, '--baseline', measured], { terminal: { columns: 1000 } });
    assert.equal(r.code, 1);
    const entries = lowered.filter((x) => x.tokenizer === 'o200k_base');
    assert.equal(entries.length, 3);
    assert.match(r.stdout, new RegExp(`^FAILED: ${entries.length} rows grew more than 0\\.50% in tokens`, 'm'));
    // Each row once, under its dataset's name.
    const out = r.stdout.split('\n');
    for (const row of entries) {
      const titles = out.flatMap((l, i) => (l === `github artsy__emission ${row.dataset}: ${row.label}` ? [i] : []));
      assert.equal(titles.length, 1, row.label);
      const lines = out
        .slice(titles[0]! + 1)
        .filter((l, i, a) => a.slice(0, i + 1).every((x) => x.startsWith('  ')) && /^ {2}raw +toon /.test(l));
      assert.equal(lines.length, 1, row.label);
      const h = lowered.find((x) => x.label === row.label && x.tokenizer === 'heuristic')!;
      const n = (v: number) => v.toLocaleString('en-US');
      assert.ok(lines[0]!.includes(`${n(row.tokens)} -> ${n(now.get(rowKey(row))!)}`), lines[0]);
      assert.ok(lines[0]!.includes(`${n(h.tokens)} -> ${n(now.get(rowKey(h))!)}`), lines[0]);
    }
  });

  it('with --json the result stays valid JSON on stdout, the comparison inside it, and the report goes to stderr', async () => {
    const r = await runCli(['benchmark', ...narrow, '--json', '--baseline', runFile, '--formats', 'toon', '--levels', 'minimal']);
    assert.equal(r.code, 0, r.stderr);
    const doc = JSON.parse(r.stdout);
    assert.equal(doc.regression.schema, 'devboy.compare/1');
    assert.equal(doc.regression.passed, true);
    assert.match(r.stderr, /^PASSED: /m);
  });

  it('a baseline that is not a benchmark result: exit 1, one line, nothing run', async () => {
    const file = join(dir, 'notbench.json');
    writeFileSync(file, '{"rows": 3}');
    const r = await runCli(['benchmark', ...narrow, '--baseline', file]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `devboy benchmark: ${file}: not a devboy benchmark result (expected "schema": "devboy.benchmark/1")\n`);
  });
});

describe('devboy benchmark --export-json, --export-markdown, --export-csv', () => {
  it('writes every export from one run while the terminal keeps the table', async () => {
    const files = { json: join(dir, 'x.json'), md: join(dir, 'x.md'), csv: join(dir, 'x.csv'), o: join(dir, 'o.json') };
    const r = await runCli([
      'benchmark',
      ...emission,
      '--levels',
      'minimal,standard',
      '--export-json',
      files.json,
      '--export-markdown',
      files.md,
      '--export-csv',
      files.csv,
      '-o',
      files.o,
    ]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^Totals over 3 datasets: o200k_base tokens/m, 'the table on stdout');
    assert.match(r.stdout, /^Speed: time to encode and decode/m);
    const doc: BenchmarkResult = JSON.parse(readFileSync(files.json, 'utf8'));
    assert.equal(doc.schema, 'devboy.benchmark/1');
    assert.equal(doc.rows.length, 3 * 2 * FORMAT_NAMES.length * 2);
    assert.equal(readFileSync(files.o, 'utf8'), readFileSync(files.json, 'utf8'));
    const md = readFileSync(files.md, 'utf8');
    assert.match(md, /^## devboy benchmark$/m);
    assert.match(md, /^### Speed$/m);
    assert.equal((md.match(/^```mermaid$/gm) ?? []).length, 2, 'a chart per level');
    assertCsvMatches(readFileSync(files.csv, 'utf8'), doc);
  });

  it('an export through a file where a folder should be: exit 1, one line naming it (a missing folder is made)', async () => {
    writeFileSync(join(dir, 'plain-file'), 'x');
    const r = await runCli([
      'benchmark',
      ...narrow,
      '--levels',
      'minimal',
      '--formats',
      'toon',
      '--export-csv',
      join(dir, 'plain-file', 'nope', 'x.csv'),
    ]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /plain-file is not a folder/);
  });
});

describe('devboy benchmark: usage', () => {
  it('--list: the providers, projects and datasets of a corpus, without running', async () => {
    const r = await runCli(['benchmark', '--list']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^the embedded corpus: 3 providers, 13 projects, \d+ planned datasets from 228 recordings \(a run$/m);
    assert.match(r.stdout, /^ {2}ALOY {2}\(23 recordings, \d+ datasets?\)$/m);
    assert.match(r.stdout, /^ {4}issues +GET \/search\/issues\?q=github3\+label%3ABug&per_page=100$/m);
  });
  it('--list narrows as a run does: --provider, --project and --dataset', async () => {
    const gitlab = await runCli(['benchmark', '--provider', 'gitlab', '--list']);
    assert.equal(gitlab.code, 0, gitlab.stderr);
    assert.match(gitlab.stdout, /^the embedded corpus, provider gitlab: 1 provider, \d+ projects?, \d+ planned datasets? /);
    assert.match(gitlab.stdout, /^gitlab$/m);
    assert.doesNotMatch(gitlab.stdout, /^(github|jira)$/m);
    const aloy = await runCli(['benchmark', '--project', 'ALOY', '--dataset', 'issues', '--list']);
    assert.equal(aloy.code, 0, aloy.stderr);
    assert.match(aloy.stdout, /^the embedded corpus, project ALOY, dataset issues: 1 provider, 1 project, \d+ planned datasets? /);
    const lines = aloy.stdout.split('\n').filter((l) => /^ {4}\S/.test(l));
    assert.ok(lines.length > 0);
    for (const l of lines) assert.match(l, /^ {4}issues /);
    assert.doesNotMatch(aloy.stdout, /^ {2}AC /m);
    const unknown = await runCli(['benchmark', '--project', 'ALO', '--list']);
    assert.equal(unknown.code, 2);
    assert.match(
      unknown.stderr,
      /^devboy benchmark: the embedded corpus: no recordings for ALO in the corpus; its projects, closest first: jira\/ALOY, /,
    );
  });

  it('--list --json: the same listing as JSON (schema devboy.corpus-list/1)', async () => {
    const r = await runCli(['benchmark', '--provider', 'jira', '--list', '--json']);
    assert.equal(r.code, 0, r.stderr);
    const listing = JSON.parse(r.stdout) as {
      schema: string;
      corpus: string;
      filter: Record<string, unknown>;
      providers: {
        provider: string;
        projects: { project: string; recordings: number; datasets: { kind: string; label: string; files: string[] }[] }[];
      }[];
      skipped: unknown[];
    };
    assert.equal(listing.schema, 'devboy.corpus-list/1');
    assert.equal(listing.corpus, 'embedded');
    assert.deepEqual(listing.filter, { provider: 'jira' });
    assert.deepEqual(
      listing.providers.map((p) => p.provider),
      ['jira'],
    );
    assert.ok(listing.providers[0]!.projects.some((p) => p.project === 'ALOY' && p.recordings === 23 && p.datasets.length > 0));
  });

  for (const [args, named] of [
    [['--export-json', join(dir, 'list.json')], '--export-json'],
    [['-o', join(dir, 'list.json')], '--output \\(-o\\)'],
    [['--markdown'], '--markdown'],
    [['--owner', 'acme', '--repo', 'widgets'], '--owner and --repo'],
    [['--provider', 'jira', '--jql', 'project = AC'], '--jql'],
    [['--runs', '3', '--formats', 'toon'], '--formats and --runs'],
    [['--baseline', join(REPO_ROOT, 'results', 'baseline.json')], '--baseline'],
    [['--details'], '--details'],
  ] as const) {
    it(`--list ${args.join(' ')}: refused in one line (a listing measures and writes nothing), exit 2`, async () => {
      const r = await runCli(['benchmark', '--list', ...args]);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.equal(r.stdout, '');
      assert.match(
        r.stderr,
        new RegExp(
          `^devboy benchmark: --list lists what the corpus holds and measures nothing: ${named} do(es)? not apply \\(--list takes `,
        ),
      );
      assert.equal(r.stderr.split('\n').length, 2, r.stderr);
      assert.ok(!existsSync(join(dir, 'list.json')));
    });
  }

  it('an unknown project is refused with the ones that exist, closest first', async () => {
    const r = await runCli(['benchmark', '--project', 'betamax__betamax']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no recordings for betamax__betamax in the corpus; its projects, closest first: github\/betamaxpy__betamax, /);
  });
  it('without a data source: the embedded corpus, named in the header', async () => {
    const r = await runCli(['benchmark', '--project', 'artsy__emission', '--runs', '1', '--dataset', 'comments']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^devboy benchmark: the embedded corpus \(corpus\/ shipped with devboy\), 1 dataset,/m);
  });
  it('DEVBOY_CORPUS points elsewhere: a missing folder is a usage error naming it', async () => {
    const r = await runCli(['benchmark', '--runs', '1'], { env: { DEVBOY_CORPUS: join(dir, 'no-such-corpus') } });
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no-such-corpus/);
  });
  it('unknown format in a list: exit 2', async () => {
    const r = await runCli(['benchmark', ...narrow, '--formats', 'toon,not-a-format']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /--formats: unknown value 'not-a-format'/);
  });
  it('--time-budget: not a number of milliseconds is exit 2; 0 makes exactly --runs timed runs in every cell', async () => {
    for (const bad of ['-1', 'soon']) {
      const r = await runCli(['benchmark', ...narrow, '--time-budget', bad]);
      assert.equal(r.code, 2);
      assert.equal(r.stderr, `devboy benchmark: --time-budget must be a non-negative number of milliseconds, got '${bad}'\n`);
    }
    // The smallest dataset will do: the runs per cell do not depend on what is measured.
    const r = await runCli([
      'benchmark',
      '--project',
      'artsy__emission',
      '--dataset',
      'comments',
      '--levels',
      'minimal',
      '--runs',
      '3',
      '--time-budget',
      '0',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const doc: BenchmarkResult = JSON.parse(r.stdout);
    assert.deepEqual(doc.settings.timing, { mode: 'fixed', max_runs: 3, budget_ms: 0 });
    assert.ok(doc.rows.length > 0);
    for (const row of doc.rows) {
      assert.equal(row.encode_runs, 3);
      assert.equal(row.decode_runs, 3);
      assert.ok(row.encode_spread_ms[0] <= row.encode_ms && row.encode_ms <= row.encode_spread_ms[1]);
    }
  });

  it('a corpus project that does not exist: exit 2, no output file', async () => {
    const out = join(dir, 'none.json');
    const r = await runCli(['benchmark', '--corpus', corpus, '--project', 'nope__nope', '-o', out]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /no recordings for nope__nope in the corpus/);
    assert.equal(existsSync(out), false);
  });
});

const sessionFile = () => join(dir, 'session.jsonl');
// The session's dedup saving does not depend on the datasets measured: the smallest will do.
const small = ['--project', 'artsy__emission', '--dataset', 'comments', '--runs', '1'];
/** A recorded response's body, read from the corpus file itself. */
const recordedBody = (file: string) =>
  (JSON.parse(readFileSync(join(corpus, file), 'utf8')) as { response: { body: unknown } }).response.body;

let sessionRun: Promise<{ table: CliResult; doc: BenchmarkResult; markdown: string }> | undefined;
/** One run with a played-back session: its JSON, table and Markdown are the same measurement's. */
function runWithSession() {
  sessionRun ??= (async () => {
    // Betamax's 13-item issues page: big next to the other call, small enough to count quickly.
    const body = recordedBody(join('github', 'betamaxpy__betamax', SMALL_ISSUES_PAGE));
    const other = recordedBody('github/octokit__octokit.rb/000_GET_repos_octokit_octokit_rb_issues_events_37786228.json');
    const lines = [
      { tool: 'get_issues', output: body },
      { tool: 'get_pulls', output: other },
      { tool: 'get_issues', output: body },
      { tool: 'get_issues', output: body },
    ].map((c) => JSON.stringify(c));
    writeFileSync(sessionFile(), `${lines.join('\n')}\n`);
    const json = join(dir, 'session.json');
    const md = join(dir, 'session.md');
    const table = await runCli([
      'benchmark',
      ...small,
      '--session',
      sessionFile(),
      '--levels',
      'raw',
      '--formats',
      'json-compact,toon',
      '--export-json',
      json,
      '--export-markdown',
      md,
    ]);
    assert.equal(table.code, 0, table.stderr);
    return { table, doc: JSON.parse(readFileSync(json, 'utf8')) as BenchmarkResult, markdown: readFileSync(md, 'utf8') };
  })();
  return sessionRun;
}

describe('devboy benchmark --session: a real dedup column', () => {
  it('every row carries the session dedup saving and the combined rule', async () => {
    const { doc } = await runWithSession();
    assert.equal(doc.session?.calls, 4);
    assert.equal(doc.session?.hits, 2);
    for (const row of doc.rows) {
      const playedBack: NonNullable<BenchmarkResult['session']>['results'] = doc.session!.results.filter(
        (x) => x.tokenizer === row.tokenizer && x.format === row.format,
      );
      assert.equal(playedBack.length, 1);
      assert.ok(row.savings.dedup > 0.3, `two of four big calls were repeats: ${row.savings.dedup}`);
      assert.equal(row.savings.dedup, playedBack[0]!.dedup);
      assert.ok(Math.abs(row.savings.combined - (row.savings.dedup + (1 - row.savings.dedup) * row.savings.encoder)) < 1e-5);
      assert.equal(row.metadata.dedup_savings_pct, row.savings.dedup);
    }
  });

  it('the table and the Markdown show the dedup and combined savings, not only the JSON', async () => {
    const { table, markdown } = await runWithSession();
    assert.match(table.stdout, /^Session .*session\.jsonl: 4 calls, 2 answered by a reference/m);
    assert.match(markdown, /^### Session `.*session\.jsonl`: 4 calls, 2 repeated/m);
    assert.match(markdown, /^\| toon \| \d+\.\d% \| -?\d+\.\d% \| \d+\.\d% \| -?\d+\.\d% \|$/m);
  });
});

describe('devboy benchmark --provider (live mode, against a local server that plays the GitHub API)', () => {
  it('reads through Octokit with GITHUB_TOKEN, measures, and never shows the token', async () => {
    const { GITHUB_TOKEN, startGithubLive } = await import('./helpers/live-apis.js');
    const live = await startGithubLive();
    try {
      // One level: what is live here is the reading (Octokit, the token, the server); the levels and
      // formats measure live items as they measure the replayed ones, which the corpus runs check.
      const repo = ['--provider', 'github', '--owner', 'acme', '--repo', 'widgets', '--limit', '5'];
      const r = await runCli(['benchmark', ...repo, '--runs', '1', '--levels', 'minimal', '--json'], {
        env: { GITHUB_TOKEN, GITHUB_API_URL: live.url, DEVBOY_CORPUS: '' },
      });
      assert.equal(r.code, 0, r.stderr);
      assert.ok(!r.stdout.includes(GITHUB_TOKEN) && !r.stderr.includes(GITHUB_TOKEN));
      const doc: BenchmarkResult = JSON.parse(r.stdout);
      assert.deepEqual(doc.source, { kind: 'live', provider: 'github', target: 'acme__widgets' });
      assert.ok(doc.datasets.some((d) => d.dataset === 'merge_requests' && d.items === 5));
      assert.deepEqual(doc.settings.levels, ['minimal']);
      assert.equal(doc.rows.length, doc.datasets.length * FORMAT_NAMES.length * 2);
    } finally {
      await live.close();
    }
  });

  it('without credentials: exit 1, one line naming the variable to set', async () => {
    const { startGithubLive } = await import('./helpers/live-apis.js');
    const live = await startGithubLive();
    try {
      const r = await runCli(['benchmark', '--provider', 'github', '--owner', 'acme', '--repo', 'widgets'], {
        env: { GITHUB_TOKEN: 'ghp_wrongTOKENvalue000', GITHUB_API_URL: live.url, DEVBOY_CORPUS: '' },
      });
      assert.equal(r.code, 1);
      assert.equal(r.stderr.trim().split('\n').length, 1);
      assert.match(r.stderr, /set GITHUB_TOKEN/);
      assert.ok(!r.stderr.includes('ghp_wrongTOKENvalue000'));
    } finally {
      await live.close();
    }
  });

  it('has the connection flags its hints name: --host, --token, --live-details, --timeout, --max-retries, --max-wait', async () => {
    const { GITHUB_TOKEN, startGithubLive } = await import('./helpers/live-apis.js');
    const live = await startGithubLive();
    try {
      const args = ['benchmark', '--provider', 'github', '--owner', 'acme', '--repo', 'widgets', '--limit', '3', '--live-details', '1'];
      const flags = ['--host', live.url, '--token', GITHUB_TOKEN, '--timeout', '10', '--max-retries', '0', '--max-wait', '5'];
      const r = await runCli([...args, ...flags, '--runs', '1', '--levels', 'minimal', '--json'], {
        env: { GITHUB_TOKEN: '', GITHUB_API_URL: '' },
      });
      assert.equal(r.code, 0, r.stderr);
      const doc: BenchmarkResult = JSON.parse(r.stdout);
      // --details 1: the files, comments and review threads of one pull request; the issues list's
      // pull requests and the /pulls list are merge requests each.
      assert.deepEqual(doc.datasets.map((d) => d.dataset).sort(), [
        'comments',
        'diffs',
        'discussions',
        'issues',
        'merge_requests',
        'merge_requests',
      ]);
      const refused = await runCli([...args, '--host', live.url], { env: { GITHUB_TOKEN: '', GITHUB_API_URL: '' } });
      assert.equal(refused.code, 1);
      assert.match(refused.stderr, /set GITHUB_TOKEN \(or --token\)$/m, 'the hint names a flag benchmark has');
    } finally {
      await live.close();
    }
  });
});
