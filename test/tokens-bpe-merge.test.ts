import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { mergeCountByBuckets, mergeCountByScan } from '../src/tokens/bpe-merge.js';
import { scaledRuns } from './helpers/arbitraries.js';

/** Byte-pair merging as plainly as it can be written: the textbook loop over an array of strings. */
function textbookMerge(text: string, rank: (token: string) => number | undefined): number {
  const parts = [...text];
  for (;;) {
    let best = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let i = 0; i + 1 < parts.length; i++) {
      const r = rank(parts[i]! + parts[i + 1]!);
      if (r !== undefined && r < best) {
        best = r;
        at = i;
      }
    }
    if (at < 0) return parts.length;
    parts.splice(at, 2, parts[at]! + parts[at + 1]!);
  }
}

/**
 * Made-up vocabularies over a few letters, with ranks in any order and ties between different
 * tokens: unlike a trained vocabulary (where a token outranks its parts), these make candidate pairs
 * of one rank arrive out of position order, the case the bucket merge keeps a heap for.
 */
const caseArb = fc.constantFrom('ab', 'abc', 'abcd').chain((alphabet) =>
  fc.record({
    vocab: fc.dictionary(fc.stringMatching(new RegExp(`^[${alphabet}]{2,6}$`)), fc.integer({ min: 0, max: 40 }), {
      maxKeys: 60,
      size: 'max',
    }),
    text: fc.stringMatching(new RegExp(`^[${alphabet}]{0,120}$`), { size: 'max' }),
  }),
);

describe('both merges agree with the textbook merge', () => {
  it('on made-up vocabularies: lowest rank first, leftmost among equal ranks', () => {
    fc.assert(
      fc.property(caseArb, ({ vocab, text }) => {
        const ranks = new Map(Object.entries(vocab));
        const want = textbookMerge(text, (t) => ranks.get(t));
        const range = (start: number, end: number) => ranks.get(text.slice(start, end));
        assert.equal(mergeCountByScan(text.length, range), want);
        assert.equal(mergeCountByBuckets(text.length, range), want);
      }),
      { numRuns: scaledRuns(3000) },
    );
  });

  it('on a long run where every pair merges, and where none does', () => {
    const run = 'a'.repeat(100_000);
    const doubling = new Map(Array.from({ length: 17 }, (_, k) => ['a'.repeat(2 ** (k + 1)), k] as const));
    // Powers of two up to 2^17 > 100,000: the run ends as the binary digits of 100,000.
    assert.equal(
      mergeCountByBuckets(run.length, (s, e) => doubling.get(run.slice(s, e))),
      [...(100_000).toString(2)].filter((d) => d === '1').length,
    );
    assert.equal(
      mergeCountByBuckets(run.length, () => undefined),
      100_000,
    );
  });
});
