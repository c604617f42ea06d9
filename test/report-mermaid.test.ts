import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { parseBenchmarkResult } from '../src/benchmark/read-result.js';
import { compareResults } from '../src/compare/compare.js';
import { COMPARE_EXPORTERS, EXPORTERS } from '../src/report/index.js';
import { rangeAround, rangeFromZero, xyBarChart } from '../src/report/mermaid.js';
import { summarize } from '../src/report/benchmark-summary.js';
import { mermaidBlocks, mermaidParse } from './helpers/mermaid.js';
import { FIXTURES } from './helpers/paths.js';

// Every chart devboy writes is checked with Mermaid's own parser (mermaid 11 under jsdom), and its
// figures against the report's: a chart GitHub cannot draw, or draws wrong, fails here.

const DIR = join(FIXTURES, 'report');
const result = parseBenchmarkResult(readFileSync(join(DIR, 'small-result.json'), 'utf8'), 'small-result.json');
let parse: (text: string) => Promise<unknown>;

before(async () => {
  parse = await mermaidParse();
});

/** The numbers of a chart's `bar [...]` line. */
function bars(source: string): number[] {
  const m = /^ {2}bar \[(.*)\]$/m.exec(source);
  assert.ok(m, source);
  return m[1]!.split(', ').map(Number);
}

describe('Mermaid charts in Markdown reports', () => {
  it('every chart in every golden Markdown file parses', async () => {
    const files = readdirSync(DIR).filter((f) => f.endsWith('.md'));
    let charts = 0;
    for (const f of files) {
      for (const source of mermaidBlocks(readFileSync(join(DIR, f), 'utf8'))) {
        await assert.doesNotReject(parse(source), `${f}:\n${source}`);
        charts++;
      }
    }
    assert.ok(charts >= 6, `charts found: ${charts}`);
  });

  it('the parser rejects a broken chart (the check can fail)', async () => {
    const good = xyBarChart({ title: 't', categories: ['a', 'b'], yLabel: 'y', values: [1, 2], yRange: [0, 3] })
      .split('\n')
      .slice(1, -1)
      .join('\n');
    await assert.doesNotReject(parse(good));
    await assert.rejects(parse(good.replace('bar [1, 2]', 'bar [1, 2')));
    await assert.rejects(parse(good.replace('bar [1, 2]', 'bar [1, two]')));
  });

  it('the benchmark report charts each level: one bar per format, the totals of the primary tokenizer, all inside the axis', async () => {
    const md = EXPORTERS.markdown.render({ result });
    const charts = mermaidBlocks(md);
    const s = summarize(result);
    assert.equal(charts.length, s.levels.length);
    s.totals.forEach((t, i) => {
      const source = charts[i]!;
      assert.match(source, new RegExp(`title "${t.level}: ${s.primary} tokens per format`));
      assert.deepEqual(
        bars(source),
        t.cells.map((c) => c.tokens),
      );
      const [, lo, hi] = /y-axis "tokens" (\S+) --> (\S+)/.exec(source)!.map(Number);
      assert.equal(lo, 0);
      assert.ok(Math.max(...bars(source)) <= hi!);
    });
  });

  it('the compare chart shows head tokens as % of base per format around a line at 100', async () => {
    const base = structuredClone(result);
    for (const r of base.rows) if (r.format === 'toon') r.tokens = Math.round(r.tokens / 1.1);
    const md = COMPARE_EXPORTERS.markdown.render(compareResults({ file: 'b', result: base }, { file: 'h', result }));
    const [chart, ...rest] = mermaidBlocks(md);
    assert.equal(rest.length, 0);
    await assert.doesNotReject(parse(chart!));
    const values = bars(chart!);
    const toon = values[result.settings.formats.indexOf('toon')]!;
    assert.ok(toon > 109.9 && toon < 110.1, String(toon));
    assert.ok(values.filter((_, i) => result.settings.formats[i] !== 'toon').every((v) => v === 100));
    assert.match(chart!, /^ {2}line \[100(, 100)*\]$/m);
  });

  it('titles with quotes, semicolons and newlines, and negative or fractional values, still parse', async () => {
    const source = xyBarChart({
      title: 'a "quoted"; title\nwith a newline',
      categories: ['json-compact', 'x "y"', 'a;b'],
      yLabel: 'change %',
      values: [-1.234, 0.001, 12345678.9],
      yRange: rangeAround(0, [-1.234, 12345678.9]),
    });
    await assert.doesNotReject(parse(mermaidBlocks(`${source}\n`)[0]!));
    assert.deepEqual(rangeFromZero([161079, 3]), [0, 170000]);
    assert.deepEqual(rangeAround(100, [105.27, 99.97]), [93, 107]);
  });
});
