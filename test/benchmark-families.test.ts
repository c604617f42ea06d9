import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { breakEven, breakEvenTable, countExplainers } from '../src/benchmark/break-even.js';
import { cellsOfRows, type FormatCell } from '../src/benchmark/cells.js';
import { winnersByTokenizer } from '../src/benchmark/families.js';
import { familyViews } from '../src/benchmark/family-views.js';
import { familyViewsOfCounts } from '../src/benchmark/input-families.js';
import { parseBenchmarkResult } from '../src/benchmark/read-result.js';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { loadPipelineConfig } from '../src/budget/strategies/config.js';
import { defaultExplainerFile, loadExplainers, NEEDS_EXPLAINER } from '../src/formats/explainers.js';
import { FORMAT_NAMES, type FormatName } from '../src/formats/types.js';
import { mergeResults } from '../src/merge/merge.js';
import { summarize } from '../src/report/benchmark-summary.js';
import { COMPARE_EXPORTERS, EXPORTERS } from '../src/report/index.js';
import { compareResults } from '../src/compare/compare.js';
import { loadTokenizer } from '../src/tokens/registry.js';
import { PROPERTY_RUNS } from './helpers/arbitraries.js';
import { runCli } from './helpers/cli.js';
import { mermaidBlocks, mermaidParse } from './helpers/mermaid.js';
import { FIXTURES } from './helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'devboy-families-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const readResult = (name: string) => parseBenchmarkResult(readFileSync(join(FIXTURES, 'report', name), 'utf8'), name);

describe('break-even: tool results until the explainer is repaid', () => {
  it('is ceil(explainer tokens / saving per result) on constructed cases', () => {
    assert.equal(breakEven(100, 1000, 900), 1); // saves 100 a result: the first result repays 100 exactly
    assert.equal(breakEven(101, 1000, 900), 2);
    assert.equal(breakEven(100, 2000, 1900, 2), 2); // 50 a result
    assert.equal(breakEven(100, 3000, 2900, 3), 3); // 33.3 a result: 3 results save 100
    assert.equal(breakEven(10, 31, 30, 3), 30); // 1/3 a result, done on integers: 30, not 31 from 10 / 0.333...
    assert.equal(breakEven(0, 1000, 999), 0); // nothing to repay
  });

  it('is never (null) when the format saves nothing or costs more', () => {
    assert.equal(breakEven(100, 1000, 1000), null);
    assert.equal(breakEven(100, 1000, 1200, 4), null);
    assert.equal(breakEven(0, 1000, 1000), null);
  });

  it('is the least number of results whose saving reaches the explainer', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 100 }),
        fc.integer({ min: 0, max: 1_000_000 }),
        fc.integer({ min: 1, max: 100_000 }),
        (explainer, results, format, saved) => {
          const n = breakEven(explainer, format + saved, format, results)!;
          // n results save n * saved / results tokens: at least the explainer, and n - 1 results fall short.
          assert.ok(n * saved >= explainer * results);
          assert.ok((n - 1) * saved < explainer * results);
        },
      ),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('per kind, level, format and tokenizer from cells: JSON needs no explainer, lossy formats are flagged', () => {
    const cells: FormatCell[] = [
      {
        dataset: 'issues',
        level: 'full',
        tokenizer: 'o200k_base',
        format: 'json-compact',
        results: 4,
        tokens: 4000,
        baseline_tokens: 4000,
        lossless: true,
      },
      {
        dataset: 'issues',
        level: 'full',
        tokenizer: 'o200k_base',
        format: 'toon',
        results: 4,
        tokens: 3600,
        baseline_tokens: 4000,
        lossless: true,
      },
      {
        dataset: 'issues',
        level: 'full',
        tokenizer: 'o200k_base',
        format: 'gcf',
        results: 4,
        tokens: 4400,
        baseline_tokens: 4000,
        lossless: false,
      },
    ];
    const explainers = countExplainers(
      [
        { format: 'toon', text: 'x'.repeat(10), source: 'a' },
        { format: 'gcf', text: 'y', source: 'b' },
      ],
      [{ name: 'o200k_base', count: (t) => t.length * 10 }],
    );
    const table = breakEvenTable(cells, explainers, 'json_compact');
    assert.deepEqual(
      table.map((e) => [e.format, e.saving_per_result, e.explainer_tokens, e.break_even, e.lossless]),
      [
        ['toon', 100, 100, 1, true],
        ['gcf', -100, 10, null, false],
      ],
    );
  });
});

describe('winner by tokenizer family', () => {
  const cell = (tokenizer: 'o200k_base' | 'llama3' | 'heuristic', format: FormatName, tokens: number, lossless = true): FormatCell => ({
    dataset: 'issues',
    level: 'full',
    tokenizer,
    format,
    results: 2,
    tokens,
    baseline_tokens: 1000,
    lossless,
  });
  const tokenizers = [
    { name: 'heuristic' as const, estimate: true },
    { name: 'o200k_base' as const, estimate: false },
    { name: 'llama3' as const, estimate: false },
  ];

  it('picks the lossless format with the fewest tokens per tokenizer, with its runner-up', () => {
    const [w] = winnersByTokenizer(
      [
        cell('o200k_base', 'toon', 900),
        cell('o200k_base', 'gcf', 800, false),
        cell('o200k_base', 'stc', 950),
        cell('llama3', 'toon', 990),
        cell('llama3', 'stc', 970),
      ],
      tokenizers,
    );
    assert.deepEqual(
      w!.winners.map((x) => [x.tokenizer, x.format, x.runner_up?.format]),
      [
        ['heuristic', null, undefined],
        ['o200k_base', 'toon', 'stc'],
        ['llama3', 'stc', 'toon'],
      ],
    );
    assert.equal(w!.changes, true);
  });

  it('ties go to the format listed first in the given order; the heuristic never makes a change', () => {
    const cells = [
      cell('o200k_base', 'toon', 900),
      cell('o200k_base', 'stc', 900),
      cell('llama3', 'stc', 900),
      cell('heuristic', 'gcf', 1),
    ];
    const [a] = winnersByTokenizer(cells, tokenizers, ['stc', 'toon', 'gcf']);
    assert.deepEqual(
      a!.winners.map((x) => x.format),
      ['gcf', 'stc', 'stc'],
    );
    assert.equal(a!.changes, false);
    const [b] = winnersByTokenizer(cells, tokenizers, FORMAT_NAMES);
    assert.deepEqual(
      b!.winners.map((x) => x.format),
      ['gcf', 'toon', 'stc'],
    );
    assert.equal(b!.changes, true);
  });

  it("on a real run, the first model tokenizer's winner is the report's recommendation in every kind and level", () => {
    for (const result of [readResult('small-result.json'), readResult('small-families-result.json')]) {
      const views = familyViews(result.rows, result.tokenizers, undefined, result.settings.savings_baseline, result.settings.formats);
      const s = summarize(result);
      for (const r of s.recommendations) {
        const w = views.winner_by_tokenizer.find((x) => x.dataset === r.kind && x.level === r.level)!;
        assert.equal(w.winners.find((x) => x.tokenizer === s.primary)!.format, r.winner ?? null, `${r.kind} ${r.level}`);
      }
    }
  });

  it('devboy merge recomputes winners and break-even over every part, equal to the whole run', () => {
    const whole = readResult('small-families-result.json');
    const part = (kinds: string[]): BenchmarkResult => ({
      ...structuredClone(whole),
      datasets: whole.datasets.filter((d) => kinds.includes(d.dataset)),
      rows: whole.rows.filter((r) => kinds.includes(r.dataset)),
      fit: whole.fit.filter((f) => kinds.includes(f.dataset)),
      lossy: whole.lossy.filter((l) => kinds.includes(l.dataset)),
    });
    const merged = mergeResults([
      { file: 'a.json', result: { ...part(['merge_requests']), winner_by_tokenizer: [], break_even: [] } },
      { file: 'b.json', result: part(['comments', 'discussions']) },
    ]);
    const sort = <T extends { dataset: string; level: string }>(xs: T[]) =>
      [...xs].sort((x, y) => `${x.dataset}${x.level}`.localeCompare(`${y.dataset}${y.level}`));
    assert.deepEqual(sort(merged.winner_by_tokenizer!), sort(whole.winner_by_tokenizer!));
    assert.equal(merged.break_even!.length, whole.break_even!.length);
    assert.deepEqual(new Set(merged.break_even!.map((e) => JSON.stringify(e))), new Set(whole.break_even!.map((e) => JSON.stringify(e))));
  });
});

describe('explainers: the prompt that teaches each format', () => {
  it('every format but JSON has a short committed explainer', async () => {
    const o200k = await loadTokenizer('o200k_base');
    const needing = FORMAT_NAMES.filter((f) => NEEDS_EXPLAINER[f]);
    assert.deepEqual(needing, ['toon', 'stc', 'gcf', 'yaml', 'csv', 'markdown-table', 'markdown-kv', 'xml']);
    for (const e of await loadExplainers(FORMAT_NAMES)) {
      assert.equal(e.source, `docs/formats/${e.format}-prompt.md`);
      assert.equal(e.text, readFileSync(defaultExplainerFile(e.format), 'utf8').replace(/\n$/, ''));
      const n = o200k.count(e.text);
      assert.ok(n > 30 && n < 250, `${e.format}: ${n} tokens`);
    }
  });

  it('devboy.toml [format_explainers] replaces one, relative to the file; mistakes name the file and line', async () => {
    writeFileSync(join(dir, 'my-toon.md'), 'Read TOON like YAML.\n');
    writeFileSync(join(dir, 'devboy.toml'), '[format_explainers]\ntoon = "my-toon.md"\n');
    const config = await loadPipelineConfig(undefined, dir);
    const loaded = await loadExplainers(['toon', 'stc'], config.explainers);
    assert.deepEqual(
      loaded.map((e) => [e.format, e.text]),
      [
        ['toon', 'Read TOON like YAML.'],
        ['stc', readFileSync(defaultExplainerFile('stc'), 'utf8').replace(/\n$/, '')],
      ],
    );
    assert.equal(loaded[0]!.source, join(dir, 'my-toon.md'));

    await assert.rejects(loadExplainers(['toon'], { yml: join(dir, 'x.md') }), /unknown format 'yml'/);
    await assert.rejects(loadExplainers(['toon'], { toon: join(dir, 'missing.md') }), (e: Error & { oneLine(): string }) =>
      /missing\.md: explainer for toon not found/.test(e.oneLine()),
    );
    writeFileSync(join(dir, 'bad.toml'), '[format_explainers]\n\ntoon = 3\n');
    await assert.rejects(loadPipelineConfig(join(dir, 'bad.toml')), (e: Error & { oneLine(): string }) =>
      /bad\.toml:3(:\d+)?: explainer for "toon" must be a file path/.test(e.oneLine()),
    );
  });

  it('benchmark --config counts the overriding explainer under each tokenizer and reports its break-even in --json', async () => {
    writeFileSync(join(dir, 'short-stc.md'), 'STC: JSON without key quotes.\n');
    writeFileSync(join(dir, 'bench.toml'), '[format_explainers]\nstc = "short-stc.md"\n');
    const r = await runCli([
      'benchmark',
      '--project',
      'artsy__emission',
      '--dataset',
      'comments',
      '--levels',
      'minimal',
      '--runs',
      '1',
      '--time-budget',
      '0',
      '--tokenizers',
      'o200k_base,cl100k_base',
      '--config',
      join(dir, 'bench.toml'),
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const run = JSON.parse(r.stdout) as BenchmarkResult;
    const stc = run.explainers!.find((e) => e.format === 'stc')!;
    const [o200k, cl100k] = await Promise.all([loadTokenizer('o200k_base'), loadTokenizer('cl100k_base')]);
    assert.deepEqual(stc.tokens, {
      o200k_base: o200k.count('STC: JSON without key quotes.'),
      cl100k_base: cl100k.count('STC: JSON without key quotes.'),
    });
    assert.equal(stc.source, join(dir, 'short-stc.md'));
    const cells = cellsOfRows(run.rows);
    for (const e of run.break_even!) {
      const c = cells.find((x) => x.dataset === e.dataset && x.level === e.level && x.format === e.format && x.tokenizer === e.tokenizer)!;
      const explainer = run.explainers!.find((x) => x.format === e.format)!.tokens[e.tokenizer]!;
      assert.equal(e.break_even, breakEven(explainer, c.baseline_tokens, c.tokens, c.results));
    }
    assert.deepEqual([...new Set(run.break_even!.map((e) => e.format))].sort(), ['gcf', 'stc', 'toon']);
    assert.equal(run.winner_by_tokenizer!.length, 1);
  });
});

describe('benchmark --tokenizers all', () => {
  it('an unknown name is a usage error listing every tokenizer and all', async () => {
    const r = await runCli(['benchmark', '--tokenizers', 'o200k_base,llama4']);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /llama4/);
    assert.match(r.stderr, /llama3.*claude_legacy.*all/);
  });
});

describe('familyViewsOfCounts: the same views from plain counts (for callers such as a stats command)', () => {
  it('one input under two tokenizers: winners, whether they change, and the break-even per format', () => {
    const views = familyViewsOfCounts({
      label: 'issues.json',
      counts: {
        o200k_base: { 'json-compact': 1000, toon: 900, stc: 950 },
        llama3: { 'json-compact': 1000, toon: 1010, stc: 960 },
      },
      lossless: { toon: true, stc: true },
      tokenizers: [
        { name: 'o200k_base', estimate: false },
        { name: 'llama3', estimate: false },
      ],
      baseline: 'json_compact',
      explainers: [
        { format: 'toon', source: 'docs/formats/toon-prompt.md', bytes: 400, tokens: { o200k_base: 120, llama3: 118 } },
        { format: 'stc', source: 'docs/formats/stc-prompt.md', bytes: 300, tokens: { o200k_base: 95, llama3: 94 } },
      ],
    });
    assert.deepEqual(
      views.winner_by_tokenizer.map((w) => [w.dataset, w.level, w.changes, w.winners.map((x) => x.format)]),
      [['issues.json', 'full', true, ['toon', 'stc']]],
    );
    assert.deepEqual(
      views.break_even.map((e) => [e.tokenizer, e.format, e.break_even]),
      [
        ['o200k_base', 'toon', 2],
        ['o200k_base', 'stc', 2],
        ['llama3', 'toon', null],
        ['llama3', 'stc', 3],
      ],
    );
    assert.throws(
      () =>
        familyViewsOfCounts({
          label: 'x',
          counts: { o200k_base: { toon: 1 } },
          tokenizers: [{ name: 'o200k_base', estimate: false }],
          baseline: 'json_compact',
        }),
      /no json-compact count under o200k_base/,
    );
  });
});

describe('claude_legacy is named an approximation wherever a report names it', () => {
  it('in the table, the Markdown and the comparison, even as the tokenizer the figures are in', async () => {
    const whole = readResult('small-families-result.json');
    const only: BenchmarkResult = {
      ...structuredClone(whole),
      tokenizers: whole.tokenizers.filter((t) => t.name === 'claude_legacy'),
      rows: whole.rows.filter((r) => r.tokenizer === 'claude_legacy'),
      heuristic_bias: [],
    };
    delete only.method_contrast;
    const grown: BenchmarkResult = structuredClone(only);
    for (const r of grown.rows) if (r.format === 'toon') r.tokens = Math.ceil(r.tokens * 1.1);
    const comparison = compareResults({ file: 'a', result: only }, { file: 'b', result: grown });
    const texts = [
      EXPORTERS.table.render({ result: only }, { details: true }),
      EXPORTERS.markdown.render({ result: only }),
      COMPARE_EXPORTERS.table.render(comparison),
      COMPARE_EXPORTERS.markdown.render(comparison),
    ];
    // Mermaid still parses chart titles that carry the label.
    const parse = await mermaidParse();
    for (const block of [...mermaidBlocks(texts[1]!), ...mermaidBlocks(texts[3]!)]) await parse(block);
    // Terminal paragraphs fold at 100 columns: read them unfolded.
    for (const text of texts.map((x) => x.replace(/\n {2,}(?=\S)/g, ' '))) {
      assert.match(text, /claude_legacy/);
      // Every mention carries the word: as a label, or inside the implementation ("…, an approximation").
      for (const m of text.matchAll(/claude_legacy(?! \(approximation\))(?! \(`?@lenml\/tokenizer-claude [^)]*an approximation`?\))/g))
        assert.fail(`bare mention at ${m.index}: ${JSON.stringify(text.slice(Math.max(0, m.index! - 60), m.index! + 60))}`);
    }
  });
});
