import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { parseBenchmarkResult } from '../src/benchmark/read-result.js';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { compareResults } from '../src/compare/compare.js';
import { csvUnneutralised } from '../src/escape/csv.js';
import { mdRow } from '../src/escape/markdown.js';
import { terminalText } from '../src/escape/terminal.js';
import { COMPARE_EXPORTERS, CSV_COLUMNS, EXPORTERS } from '../src/report/index.js';
import { corpusListText } from '../src/report/corpus-list.js';
import { readCsv } from './helpers/csv.js';
import {
  assertNoMarkupFromData,
  blockSkeleton,
  hostileString,
  NASTY,
  nodes,
  parseMarkdown,
  withHostileData,
} from './helpers/hostile-text.js';
import { mermaidBlocks, mermaidParse } from './helpers/mermaid.js';
import { FIXTURES } from './helpers/paths.js';
import { runCli } from './helpers/cli.js';

// Output safety: results and corpora built from hostile strings (terminal escapes, Markdown that
// would start headings or mention people, Mermaid directives, spreadsheet formulas) go through every
// report, and each output is read back by a parser of its kind (mdast with GFM, Mermaid's own parser,
// csv-parse) to check that every string stayed in its place.

const DIR = join(FIXTURES, 'report');
const read = (name: string) => parseBenchmarkResult(readFileSync(join(DIR, name), 'utf8'), name);

/**
 * A result's first and last datasets and any with a lossy cell, at the full level (the fit's and the
 * method contrast's) and the standard one (the lossy cell's), with their rows and sections. Every
 * kind of field a report shows is still there, in tables of more than one dataset and level (a
 * string that broke its row would show in the next); the reports are shorter, and parsing them back
 * is most of what these properties cost.
 */
function smaller(r: BenchmarkResult, keep = (i: number, last: number) => i === 0 || i === last, only?: string): BenchmarkResult {
  const lossy = new Set(r.lossy.map((x) => x.label));
  const kept = new Set(r.datasets.filter((d, i, all) => keep(i, all.length - 1) || lossy.has(d.label)).map((d) => d.label));
  const levels = r.settings.levels.filter((l) => (only ? l === only : l === 'full' || l === 'standard'));
  const atLevels = <T extends { level: string }>(xs: T[]) => xs.filter((x) => (levels as string[]).includes(x.level));
  const ofDatasets = <T extends { label: string }>(xs: T[]) => xs.filter((x) => kept.has(x.label));
  return {
    ...r,
    settings: { ...r.settings, levels },
    datasets: ofDatasets(r.datasets),
    rows: atLevels(ofDatasets(r.rows)),
    lossy: atLevels(ofDatasets(r.lossy)),
    fit: ofDatasets(r.fit),
    heuristic_bias: atLevels(r.heuristic_bias),
    winner_by_tokenizer: r.winner_by_tokenizer && atLevels(r.winner_by_tokenizer),
    break_even: r.break_even && atLevels(r.break_even),
  };
}

const result = smaller(read('small-result.json'));
// What a session run adds to a report (the session named in the header, its section) is checked on
// one dataset at one level: the tables of several datasets and levels are the result's to check,
// and this second report cost as much to parse back as the first.
const session = smaller(read('small-session-result.json'), (i) => i === 0, 'full');

/** What a terminal acts on: C0 and C1 controls but the line feed, bidirectional controls, line separators. */
/* eslint-disable no-control-regex -- matching control characters is the point */
const TERMINAL_ACTS_ON =
  /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/* eslint-enable no-control-regex */

/** Data as it was before terminalText escaped it: `\\\\`, `\\n`, `\\r`, `\\t` and `\\uXXXX` read back; a lone `\\` is an error. */
function unescapeTerminal(text: string): string {
  return text.replace(/\\(\\|n|r|t|u[0-9a-f]{4}|[\s\S]?)/g, (_, e: string) => {
    if (e === '\\') return '\\';
    if (e === 'n') return '\n';
    if (e === 'r') return '\r';
    if (e === 't') return '\t';
    if (e.startsWith('u')) return String.fromCharCode(parseInt(e.slice(1), 16));
    throw new Error(`a backslash that is no escape: ${JSON.stringify(text)}`);
  });
}

const strings = fc.array(hostileString, { minLength: 3, maxLength: 8 });
const RUNS = 25;

/** `NASTY` started at its `k`th string: withHostileData hands out strings in order, place after place. */
const rotated = (k: number) => [...NASTY.slice(k), ...NASTY.slice(0, k)];
/**
 * The first runs of each property: NASTY from three starts, 12 strings apart. withHostileData fills
 * fewer places than NASTY has strings (about 25 here), so one run shows only some of them; these three
 * put every one of them into a place of every report (the checks-can-fail test counts it), whatever
 * the random runs after them draw. Planting a missing escape in a field, a code span's fence or its
 * padding, each was caught by these three alone, and the random runs took up to 27 to catch some.
 */
const EVERY_NASTY = [0, 12, 24].map((k): [string[]] => [rotated(k)]);
/** The Markdown property's runs: the three above and random ones; parsing each report back with mdast is what it costs. */
const MARKDOWN_RUNS = 12;
/** The Mermaid property's first run: NASTY's Mermaid directives (and a quote) among the format names, which the charts show. */
const DIRECTIVES_AS_FORMATS: [string[]] = [rotated(NASTY.findIndex((x) => x.includes('%%{')) - 2)];

/** How many strings withHostileData places in `r` (its i-th string goes to the i-th place). */
function places(r: BenchmarkResult): number {
  const marks = Array.from({ length: 200 }, (_, i) => `<${i}>`);
  const text = JSON.stringify(withHostileData(r, marks));
  return marks.filter((m) => text.includes(m)).length;
}

/** Format names from data too: each format renamed to one of `xs`, numbered to keep them apart (changes `r`). */
function withHostileFormats(r: BenchmarkResult, xs: readonly string[]): BenchmarkResult {
  const names = new Map(r.settings.formats.map((f, i) => [f, `${xs[i % xs.length]}${i}`]));
  r.settings.formats = r.settings.formats.map((f) => names.get(f)! as never);
  for (const x of r.rows) x.format = names.get(x.format)! as never;
  for (const x of r.lossy) x.format = names.get(x.format)! as never;
  return r;
}

/** A comparison whose two results, format names and file names are hostile, with regressions, lost round trips, missing rows and notes. */
function hostileComparison(xs: string[]) {
  const head = withHostileData(result, xs);
  const base: BenchmarkResult = structuredClone(head);
  for (const r of base.rows) if (r.format === 'toon') r.tokens = Math.floor(r.tokens * 0.9);
  const lossy = base.rows.find((r) => !r.lossless)!;
  lossy.lossless = true;
  base.rows.push({ ...base.rows[0]!, label: `${xs[0]}gone` });
  // What differs between the two runs is listed as notes, which quote the result files' own strings.
  base.devboy = `${xs[xs.length - 1]}0.0.1`;
  base.settings.session = `${xs[1]}session`;
  return compareResults(
    { file: `${xs[1]}base.json`, result: withHostileFormats(base, xs) },
    { file: `${xs[2]}head.json`, result: withHostileFormats(head, xs) },
  );
}

describe('reports of hostile data: every string stays in its place', () => {
  let parseMermaid: (text: string) => Promise<unknown>;
  before(async () => {
    parseMermaid = await mermaidParse();
  });

  it('terminal: the benchmark and compare tables and --list show control, bidi and escape characters escaped', () => {
    fc.assert(
      fc.property(strings, (xs) => {
        const hostile = withHostileData(result, xs);
        for (const details of [false, true]) {
          const text = EXPORTERS.table.render({ result: hostile }, { color: false, details });
          assert.doesNotMatch(text, TERMINAL_ACTS_ON, text);
        }
        const text = COMPARE_EXPORTERS.table.render(hostileComparison(xs));
        assert.doesNotMatch(text, TERMINAL_ACTS_ON, text);
        const listing = corpusListText(
          {
            filter: { project: xs[2]! },
            providers: [
              {
                provider: 'github',
                projects: [
                  {
                    project: xs[0]!,
                    recordings: 1,
                    datasets: [{ kind: 'issues', label: xs[1]!, files: [] }],
                    notMeasured: [{ file: xs[1]!, cause: 'not-a-list', reason: xs[2]! }],
                  },
                ],
              },
            ],
            skipped: [{ file: xs[2]!, line: 1, col: 2, reason: xs[0]! }],
          } as never,
          xs[1]!,
        );
        assert.doesNotMatch(listing, TERMINAL_ACTS_ON, listing);
      }),
      { numRuns: RUNS, examples: EVERY_NASTY },
    );
  });

  it('Markdown: the benchmark and compare reports keep their structure; no heading, link, image, mention or HTML comes from data', () => {
    const benign = (r: BenchmarkResult) => withHostileFormats(withHostileData(r, ['plain']), ['plain']);
    const skeletons = new Map<string, string[]>();
    const skeleton = (key: string, md: string) => {
      if (!skeletons.has(key)) skeletons.set(key, blockSkeleton(parseMarkdown(md)));
      return skeletons.get(key)!;
    };
    fc.assert(
      fc.property(strings, (xs) => {
        for (const [key, source] of [
          ['result', result],
          ['session', session],
        ] as const) {
          const md = EXPORTERS.markdown.render({ result: withHostileFormats(withHostileData(source, xs), xs) });
          const tree = parseMarkdown(md);
          assertNoMarkupFromData(md, tree);
          assert.deepEqual(blockSkeleton(tree), skeleton(key, EXPORTERS.markdown.render({ result: benign(source) })), md);
        }
        const md = COMPARE_EXPORTERS.markdown.render(hostileComparison(xs));
        const tree = parseMarkdown(md);
        assertNoMarkupFromData(md, tree);
        assert.deepEqual(
          blockSkeleton(tree),
          skeleton('compare', COMPARE_EXPORTERS.markdown.render(hostileComparison(['plain', 'p', 'q']))),
          md,
        );
      }),
      { numRuns: MARKDOWN_RUNS, examples: EVERY_NASTY },
    );
  });

  // The reports around the charts, with the same format names, are the Markdown property's to read.
  it('Mermaid: charts of hostile format names parse, and no directive from data reaches the configuration', async () => {
    await fc.assert(
      fc.asyncProperty(strings, async (xs) => {
        const hostile = withHostileFormats(withHostileData(result, xs), xs);
        const base = structuredClone(hostile);
        for (const r of base.rows) r.tokens += 1;
        const md = [
          EXPORTERS.markdown.render({ result: hostile }),
          COMPARE_EXPORTERS.markdown.render(compareResults({ file: 'b', result: base }, { file: 'h', result: hostile })),
        ].join('\n');
        const charts = mermaidBlocks(md);
        assert.ok(charts.length > 0);
        for (const chart of charts) {
          const parsed = (await parseMermaid(chart)) as { config?: Record<string, unknown> };
          assert.deepEqual(
            Object.keys(parsed.config ?? {}).filter((k) => k !== 'xyChart'),
            [],
            chart,
          );
        }
      }),
      { numRuns: 6, examples: [DIRECTIVES_AS_FORMATS] },
    );
  });

  it('CSV: every text cell reads back as the data, and none starts a formula', () => {
    const text = (name: string) =>
      ['provider', 'project', 'dataset', 'label', 'level', 'format', 'tokenizer', 'lossless_reason', 'savings_baseline'].includes(name);
    fc.assert(
      fc.property(strings, (xs) => {
        const hostile = withHostileData(result, xs);
        const records = readCsv(EXPORTERS.csv.render({ result: hostile }));
        assert.equal(records.length, hostile.rows.length);
        records.forEach((rec, i) => {
          const row = hostile.rows[i]!;
          for (const c of CSV_COLUMNS) {
            const cell = rec[c.name]!;
            if (text(c.name)) assert.doesNotMatch(cell, /^[=+\-@\t\r]/, `${c.name}: ${cell}`);
            else assert.match(cell, /^(-?\d+(\.\d+)?(e[-+]?\d+)?|true|false|)$/, `${c.name}: ${cell}`);
          }
          // A lone surrogate cannot be written as UTF-8: the file holds U+FFFD, as for any text.
          const utf8 = (x: string) => Buffer.from(x).toString('utf8');
          assert.equal(csvUnneutralised(rec['label']!), utf8(row.label));
          assert.equal(csvUnneutralised(rec['project']!), utf8(row.project));
          assert.equal(csvUnneutralised(rec['lossless_reason']!), utf8(row.lossless_reason ?? ''));
        });
      }),
      { numRuns: RUNS, examples: EVERY_NASTY },
    );
  });

  it('terminal: a session whose tool names are hostile shows them escaped, cut without splitting an escape', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'devboy-hostile-session-'));
    try {
      const file = join(dir, 'calls.jsonl');
      const tools = [...NASTY, `${'x'.repeat(25)}\u001b[2J`, `${'y'.repeat(26)}\u202e`];
      writeFileSync(file, tools.map((tool, i) => JSON.stringify({ tool, output: [{ id: i, text: tool }] })).join('\n'));
      const r = await runCli(['session', file, '--tokenizer', 'heuristic']);
      assert.equal(r.code, 0, r.stderr);
      assert.doesNotMatch(r.stdout, TERMINAL_ACTS_ON, r.stdout);
      // Cut at 28 columns: the escape is left out whole, never half of it.
      assert.match(r.stdout, /x{25}…/);
      assert.doesNotMatch(r.stdout, /\\u0?0?1?…|\\u…/);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('terminal: escaping is one to one: a backslash is escaped too, so the text \\u001b and a real ESC differ', () => {
    assert.equal(terminalText('\u001b'), '\\u001b');
    assert.equal(terminalText('\\u001b'), '\\\\u001b');
    assert.equal(terminalText('C:\\dir\\n'), 'C:\\\\dir\\\\n');
    // Every shown text reads back as exactly its data, and a cut never splits an escaped backslash.
    fc.assert(
      fc.property(
        fc.oneof(hostileString, fc.string({ unit: fc.constantFrom('\\', 'u', '0', '1', 'b', 'n', '\n', '\u001b', 'x') })),
        fc.nat(40),
        (x, max) => {
          assert.equal(unescapeTerminal(terminalText(x)), x);
          const cut = terminalText(x, max);
          if (cut.endsWith('…') && !x.endsWith('…')) assert.ok(x.startsWith(unescapeTerminal(cut.slice(0, -1))), cut);
        },
      ),
      { numRuns: 500 },
    );
  });

  // Cells from terminalText hold only even runs of backslashes (it doubles each); mdRow must keep a
  // pipe in its cell after a run of any length, odd ones included, which the properties never make.
  it('Markdown tables: a pipe stays in its cell after any run of backslashes', () => {
    for (let run = 0; run <= 4; run++) {
      const tree = parseMarkdown(`| a | b |\n| --- | --- |\n${mdRow([`x${'\\'.repeat(run)}|y`, 'end'])}\n`);
      const rows = [...nodes(tree)].filter((n) => n.type === 'tableRow');
      const cells = rows[1]?.children ?? [];
      assert.equal(cells.length, 2, `${run} backslashes: ${JSON.stringify(cells)}`);
      assert.equal((cells[1]!.children?.[0] as { value?: string } | undefined)?.value, 'end', `${run} backslashes`);
    }
  });

  it('the checks can fail: raw data would break each of them', () => {
    assert.match('\u001b[2J', TERMINAL_ACTS_ON);
    assert.throws(() => assertNoMarkupFromData('x', parseMarkdown('| a |\n|---|\n| [x](https://e.example) |\n')));
    assert.throws(() => assertNoMarkupFromData('x', parseMarkdown('cc @someone')));
    assert.notDeepEqual(blockSkeleton(parseMarkdown('a\n## b\n')), blockSkeleton(parseMarkdown('a b\n')));
    assert.ok(NASTY.length > 20);
    // One run places only some of NASTY in a report; the three first runs place all of it in each.
    for (const source of [result, session]) {
      const n = places(source);
      assert.ok(n < NASTY.length, `${n} places`);
      assert.deepEqual(new Set(EVERY_NASTY.flatMap(([xs]) => xs.slice(0, n))), new Set(NASTY));
    }
    // The Mermaid property's first run names formats with both directives.
    const formats = DIRECTIVES_AS_FORMATS[0].slice(0, result.settings.formats.length);
    assert.equal(formats.filter((x) => x.includes('%%{')).length, 2);
    // The cut-down results still hold more than one dataset and level, and a lossy cell.
    assert.ok(result.datasets.length > 1 && result.settings.levels.length > 1 && result.rows.length > 0);
    assert.ok(result.lossy.length > 0 && result.rows.some((r) => !r.lossless));
    // The cut-down session still has the session a report names in its header and its own section.
    const sessionReport = EXPORTERS.markdown.render({ result: withHostileData(session, ['SESSION']) });
    assert.ok(session.rows.length > 0 && session.session !== undefined);
    assert.match(sessionReport, /dedup from session `SESSION`/);
    assert.match(sessionReport, /^### Session `SESSION`/m);
  });
});
