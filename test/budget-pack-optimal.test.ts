import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { chunkIndexText, INDEX_FORMS, withIndex, type ChunkRange, type IndexSpec } from '../src/budget/chunks/index-text.js';
import { packChunks } from '../src/budget/chunks/pack.js';
import { planChunks } from '../src/budget/plan-chunks.js';
import { loadFormat } from '../src/formats/registry.js';
import type { JsonValue } from '../src/json/types.js';
import { loadTokenizer } from '../src/tokens/registry.js';
import { datasetAtLevel } from '../src/trim/levels.js';
import { scaledRuns } from './helpers/arbitraries.js';
import { corpusDatasets, memoTokenizer } from './helpers/budget.js';

// The pages column promises the fewest responses a reader needs. On lists small enough to try every
// split into consecutive chunks with every index form, nothing may beat the planner.

/** The index of a list, with a summary per chunk (its items' titles) as the detailed form shows. */
const spec = (values: readonly { title: string }[]): IndexSpec => ({
  total: values.length,
  noun: (k) => (k === 1 ? 'item' : 'items'),
  order: 'as listed',
  hint: 'Ask for chunk N.',
  summary: (c) =>
    values
      .slice(c.offset, c.offset + c.limit)
      .map((v) => v.title)
      .join('; ')
      .slice(0, 160),
});

/** Every split of n items into consecutive chunks. */
function* splits(n: number): Generator<ChunkRange[]> {
  for (let mask = 0; mask < 2 ** (n - 1); mask++) {
    const chunks: ChunkRange[] = [];
    let start = 0;
    for (let i = 1; i <= n; i++) {
      if (i === n || mask & (1 << (i - 1))) {
        chunks.push({ offset: start, limit: i - start });
        start = i;
      }
    }
    yield chunks;
  }
}

describe('the chunk planner needs no more responses than any split (brute force)', () => {
  it('on generated lists of up to 7 items, budgets where several responses are needed', async () => {
    const toon = await loadFormat('toon');
    const { count } = await loadTokenizer('o200k_base');
    const item = fc.record({
      id: fc.nat(999),
      title: fc.string({ minLength: 0, maxLength: 120 }),
      state: fc.constantFrom('open', 'closed'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(item, { minLength: 2, maxLength: 7 }), fc.integer({ min: 150, max: 1500 }), async (values, budget) => {
        const n = values.length;
        const render = (from: number, to: number) => toon.encode(values.slice(from, to) as JsonValue[]);
        const index = (chunks: readonly ChunkRange[], k: number, form: (typeof INDEX_FORMS)[number]) =>
          chunks.length <= 1 ? '' : chunkIndexText(chunks, k, spec(values), form);
        const respond = (chunks: ChunkRange[], k: number, form: (typeof INDEX_FORMS)[number]) =>
          withIndex(render(chunks[k]!.offset, chunks[k]!.offset + chunks[k]!.limit), index(chunks, k, form));
        let best = Infinity;
        for (const chunks of splits(n)) {
          if (chunks.length >= best) continue;
          for (const form of INDEX_FORMS) {
            if (chunks.every((_, k) => count(respond(chunks, k, form)) <= budget)) best = chunks.length;
          }
        }
        const packed = packChunks({
          count: n,
          sizes: values.map((v) => JSON.stringify(v).length),
          render,
          index,
          budget,
          tokens: count,
          check: 'response',
        });
        if (best === Infinity) return; // some item does not fit any response: the planner reports it oversized
        if (packed.oversized.length > 0) return;
        // What the planner returns must itself be valid...
        packed.chunks.forEach((_, k) => assert.ok(count(respond(packed.chunks, k, packed.form ?? 'detailed')) <= budget));
        // ...and no longer than the best split.
        assert.equal(packed.chunks.length, best, `${n} items in ${budget} tokens: planner ${packed.chunks.length}, best ${best}`);
      }),
      { numRuns: scaledRuns(200) },
    );
  });
});

describe('pages on the corpus', () => {
  it("octokit's 30 closed pull requests at raw level in TOON take at most 16 responses of 8,000 o200k_base tokens", async () => {
    const d = (await corpusDatasets()).find((x) => x.label === 'GET /repos/octokit/octokit.rb/pulls?state=closed')!;
    const items = datasetAtLevel(d, 'raw');
    const toon = await loadFormat('toon');
    // The plan counts the whole list first; the bound below counts the same text (a second count of
    // 30 raw pull requests was a sixth of this test).
    const { tokenizer, count } = await memoTokenizer('o200k_base');
    const plan = planChunks(items, {
      kind: d.kind,
      format: toon,
      tokenizer,
      budget: 8000,
      level: 'raw',
      models: d.result.items,
      count,
    });
    assert.ok(plan.total_chunks <= 16, `${plan.total_chunks} pages`);
    // More than the content alone would need is impossible: every response holds at most 8,000 tokens.
    assert.ok(plan.total_chunks >= Math.ceil(count(toon.encode(items)) / 8000));
  });
});
