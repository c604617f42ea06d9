import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { lineBlocks, MAX_BLOCKS, MIN_CUT_CHARS, renderCut } from '../src/budget/tree/text-cut.js';
import type { FileDiff, Issue } from '../src/model/index.js';
import { corpusDatasets } from './helpers/budget.js';

let texts: string[];

before(async () => {
  const datasets = await corpusDatasets();
  texts = datasets
    .flatMap((d) =>
      d.result.items.map((i) => (d.kind === 'diffs' ? (i as FileDiff).diff : d.kind === 'issues' ? ((i as Issue).description ?? '') : '')),
    )
    .filter((t) => t.length > 0);
});

/** Lines a cut text stands for: its own lines, and what each marker says it left out. */
function accountedLines(cut: string): { kept: string[]; cutCount: number } {
  const kept: string[] = [];
  let cutCount = 0;
  for (const line of cut.split('\n')) {
    const m = /^…\[cut (\d+) lines?\]$/.exec(line);
    if (m) cutCount += Number(m[1]);
    else kept.push(line);
  }
  return { kept, cutCount };
}

describe('cutting long texts at line boundaries (real patches and descriptions)', () => {
  it('blocks cover every line once, in order, at most 16 of them; short or one-line texts are not cut', () => {
    let cuttable = 0;
    for (const text of texts) {
      const lines = text.split('\n');
      const blocks = lineBlocks(lines);
      if (!blocks) {
        assert.ok(lines.length < 2 || text.length + 1 < MIN_CUT_CHARS);
        continue;
      }
      cuttable++;
      assert.ok(blocks.length <= MAX_BLOCKS && blocks.length >= 1);
      assert.equal(blocks[0]!.start, 0);
      assert.equal(blocks.at(-1)!.end, lines.length);
      for (let k = 1; k < blocks.length; k++) assert.equal(blocks[k]!.start, blocks[k - 1]!.end);
      for (const b of blocks) assert.ok(b.end > b.start);
    }
    assert.ok(cuttable > 100, `${cuttable} cuttable texts`);
  });

  it('a cut keeps whole lines in order and its markers account for every line left out', () => {
    const cuttable = texts.filter((t) => lineBlocks(t.split('\n')) !== undefined);
    fc.assert(
      fc.property(
        fc.nat({ max: cuttable.length - 1 }),
        fc.array(fc.boolean(), { minLength: MAX_BLOCKS, maxLength: MAX_BLOCKS }),
        (pick, mask) => {
          const lines = cuttable[pick]!.split('\n');
          const blocks = lineBlocks(lines)!;
          const kept = blocks.map((_, k) => mask[k]!);
          const cut = renderCut(lines, blocks, kept);
          const { kept: keptLines, cutCount } = accountedLines(cut);
          const expected = blocks.flatMap((b, k) => (kept[k] ? lines.slice(b.start, b.end) : []));
          assert.deepEqual(keptLines, expected);
          assert.equal(keptLines.length + cutCount, lines.length);
          if (kept.every(Boolean)) assert.equal(cut, cuttable[pick]);
          // No two markers in a row: a run of cut blocks is one marker.
          assert.doesNotMatch(cut, /…\[cut \d+ lines?\]\n…\[cut/);
        },
      ),
      { numRuns: 500 },
    );
  });
});
