import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { chunkTree } from '../src/budget/tree/chunk-tree.js';
import type { ItemPlan } from '../src/budget/tree/item-plan.js';

/** A text of 200,000 blocks (a huge diff) becomes 200,000 block nodes, not a stack overflow. */

describe('trim tree of a very long text', () => {
  it('one node per block', () => {
    const count = 200_000;
    const plan: ItemPlan = {
      index: 0,
      value: 1,
      minimal: { file_path: 'big.txt' },
      minimalTokens: 5,
      levels: [
        {
          level: 'full',
          object: { file_path: 'big.txt', diff: '' },
          texts: [
            {
              path: ['diff'],
              lines: [],
              blocks: Array.from({ length: count }, (_, i) => ({ start: i, end: i + 1 })),
              blockTokens: new Array<number>(count).fill(1),
              blockShares: new Array<number>(count).fill(1 / count),
              prefix: false,
            },
          ],
          comments: [],
          baseTokens: 10,
        },
      ],
    };
    const tree = chunkTree('diffs', [plan]);
    const level = tree.children[0]!.children[0]!;
    assert.equal(level.children.length, count);
    assert.deepEqual(level.children[count - 1]!.ref, { type: 'block', item: 0, level: 0, text: 0, block: count - 1 });
  });
});
