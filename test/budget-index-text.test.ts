import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { chunkIndexText, INDEX_FORMS, type ChunkRange, type IndexForm, type IndexSpec } from '../src/budget/chunks/index-text.js';
import { PROPERTY_RUNS } from './helpers/arbitraries.js';

// The chunk index is what an agent reads to ask for the rest: whatever form it takes, the ranges it
// lists must cover every item exactly once, in order, and name each chunk by its number.

const spec = (total: number): IndexSpec => ({
  total,
  noun: (k) => (k === 1 ? 'item' : 'items'),
  order: 'as listed',
  hint: 'Ask for chunk N.',
  summary: (c) => `items ${c.offset + 1} to ${c.offset + c.limit}`,
});

interface Listed {
  first: number;
  last: number;
  offset: number;
  limit: number;
  current: boolean;
}

/** The ranges an index lists, as an agent reads them. */
function listed(text: string): Listed[] {
  return text.split('\n').flatMap((line) => {
    const m = /^(?:next: )?chunks? (\d+)(?:-(\d+))? \(offset=(\d+), limit=(\d+)\)/.exec(line);
    if (!m) return [];
    const first = Number(m[1]);
    return [{ first, last: Number(m[2] ?? first), offset: Number(m[3]), limit: Number(m[4]), current: line.endsWith('<< this response') }];
  });
}

const chunksOf = (limits: number[]): ChunkRange[] => {
  let offset = 0;
  return limits.map((limit) => {
    const chunk = { offset, limit };
    offset += limit;
    return chunk;
  });
};

const layout = fc
  .array(fc.integer({ min: 1, max: 30 }), { minLength: 2, maxLength: 40 })
  .chain((limits) => fc.tuple(fc.constant(limits), fc.integer({ min: 0, max: limits.length - 1 })));

describe('chunk index text', () => {
  for (const form of INDEX_FORMS.filter((f): f is Exclude<IndexForm, 'brief'> => f !== 'brief')) {
    it(`${form}: the listed ranges cover every item once, in order, numbered 1..n, the current one marked`, () => {
      fc.assert(
        fc.property(layout, ([limits, current]) => {
          const chunks = chunksOf(limits);
          const total = limits.reduce((a, b) => a + b, 0);
          const ranges = listed(chunkIndexText(chunks, current, spec(total), form));
          let nextItem = 0;
          let nextChunk = 1;
          for (const r of ranges) {
            assert.equal(r.first, nextChunk, 'chunk numbers run on');
            assert.equal(r.offset, nextItem, `chunk ${r.first} starts where the previous one ended`);
            assert.equal(
              r.offset + r.limit,
              chunks[r.last - 1]!.offset + chunks[r.last - 1]!.limit,
              `chunk ${r.first}-${r.last} ends where chunk ${r.last} ends`,
            );
            nextItem = r.offset + r.limit;
            nextChunk = r.last + 1;
          }
          assert.equal(nextItem, total, 'every item is listed');
          assert.equal(nextChunk, chunks.length + 1, 'every chunk is listed');
          assert.deepEqual(
            ranges.filter((r) => r.current).map((r) => r.first),
            [current + 1],
          );
        }),
        { numRuns: PROPERTY_RUNS },
      );
    });
  }

  it('elided: the first, the neighbours of the current chunk and the last stand alone; the others are ranges', () => {
    const chunks = chunksOf([5, 5, 5, 5, 5, 5, 5, 4]);
    assert.equal(
      chunkIndexText(chunks, 4, spec(39), 'elided'),
      [
        '[chunks] 5/39 items in 8 chunks (order: as listed)',
        'chunk 1 (offset=0, limit=5)',
        'chunks 2-3 (offset=5, limit=10)',
        'chunk 4 (offset=15, limit=5)',
        'chunk 5 (offset=20, limit=5) << this response',
        'chunk 6 (offset=25, limit=5)',
        'chunk 7 (offset=30, limit=5)',
        'chunk 8 (offset=35, limit=4)',
        '[/chunks]',
        'Ask for chunk N.',
      ].join('\n'),
    );
    assert.equal(
      chunkIndexText(chunks, 0, spec(39), 'elided').split('\n').slice(1, -2).join('\n'),
      [
        'chunk 1 (offset=0, limit=5) << this response',
        'chunk 2 (offset=5, limit=5)',
        'chunks 3-7 (offset=10, limit=25)',
        'chunk 8 (offset=35, limit=4)',
      ].join('\n'),
    );
  });

  it('brief: this chunk and the next, each with its own range', () => {
    fc.assert(
      fc.property(layout, ([limits, current]) => {
        const chunks = chunksOf(limits);
        const ranges = listed(chunkIndexText(chunks, current, spec(limits.reduce((a, b) => a + b, 0)), 'brief'));
        const expected = [current, current + 1].filter((k) => k < chunks.length);
        assert.deepEqual(
          ranges.map((r) => [r.first, r.last, r.offset, r.limit, r.current]),
          expected.map((k) => [k + 1, k + 1, chunks[k]!.offset, chunks[k]!.limit, k === current]),
        );
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});
