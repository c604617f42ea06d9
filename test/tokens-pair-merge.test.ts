import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { HfBpeCounter, toJsPattern, type TokenizerJson } from '../src/tokens/hf-bpe.js';
import { ID_SPAN, MergeTable, pairMergeByHeap, pairMergeByScan } from '../src/tokens/pair-merge.js';
import { PROPERTY_RUNS } from './helpers/arbitraries.js';

/**
 * Hugging Face BPE as plainly as it can be written: parts are strings; the adjacent pair with the
 * lowest merge rank merges, the leftmost among equal ranks, until no adjacent pair is a merge.
 */
function textbookMerge(text: string, merges: Map<string, number>): number {
  const parts = [...text];
  for (;;) {
    let best = Number.POSITIVE_INFINITY;
    let at = -1;
    for (let i = 0; i + 1 < parts.length; i++) {
      const r = merges.get(`${parts[i]!} ${parts[i + 1]!}`);
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
 * Made-up merge lists over a few letters, in any order: the same text made by two splits at
 * different ranks ("a"+"bc" before "ab"+"c"), pairs repeated, merges whose parts are never made.
 */
const caseArb = fc.constantFrom('ab', 'abc', 'abcd').chain((alphabet) => {
  const token = fc.stringMatching(new RegExp(`^[${alphabet}]{1,3}$`));
  return fc.record({
    merges: fc.array(fc.tuple(token, token), { maxLength: 50, size: 'max' }),
    text: fc.stringMatching(new RegExp(`^[${alphabet}]{0,120}$`), { size: 'max' }),
  });
});

function build(merges: [string, string][], text: string) {
  const ids = new Map<string, number>();
  const id = (s: string) => {
    let v = ids.get(s);
    if (v === undefined) ids.set(s, (v = ids.size));
    return v;
  };
  const table = new MergeTable();
  const byText = new Map<string, number>();
  merges.forEach(([a, b], rank) => {
    table.add(id(a), id(b), rank, id(a + b));
    byText.set(`${a} ${b}`, rank);
  });
  return { table, byText, symbols: () => Int32Array.from([...text].map(id)) };
}

describe('pair merges (Hugging Face BPE)', () => {
  it('the scan and the heap agree with the textbook merge on made-up merge lists', () => {
    fc.assert(
      fc.property(caseArb, ({ merges, text }) => {
        const { table, byText, symbols } = build(merges, text);
        const want = textbookMerge(text, byText);
        assert.equal(pairMergeByScan(symbols(), table), want);
        assert.equal(pairMergeByHeap(symbols(), table), want);
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });

  it('a pair listed twice takes its last rank, as the libraries build their maps', () => {
    // Last rank: "a b" (1) before "b c" (3), then "ab c" is no merge: 2 tokens. The first rank would merge "b c" (0), then "a bc": 1.
    const { table, symbols } = build(
      [
        ['b', 'c'],
        ['a', 'b'],
        ['a', 'bc'],
        ['b', 'c'],
      ],
      'abc',
    );
    assert.equal(pairMergeByScan(symbols(), table), 2);
    assert.equal(pairMergeByHeap(symbols(), table), 2);
  });

  it('the table answers as a Map would, through every growth, for ids across the whole span', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(ID_SPAN - 1), fc.nat(ID_SPAN - 1), fc.nat(ID_SPAN - 1)), { maxLength: 3000 }),
        fc.array(fc.tuple(fc.nat(ID_SPAN - 1), fc.nat(ID_SPAN - 1)), { maxLength: 50 }),
        (adds, probes) => {
          const table = new MergeTable();
          const want = new Map<string, number>();
          adds.forEach(([left, right, merged], rank) => {
            table.add(left, right, rank, merged);
            want.set(`${left} ${right}`, rank * ID_SPAN + merged);
          });
          assert.equal(table.size, want.size);
          for (const [left, right] of [...adds.map(([l, r]) => [l, r] as const), ...probes])
            assert.equal(table.get(left, right), want.get(`${left} ${right}`));
        },
      ),
      { numRuns: Math.ceil(PROPERTY_RUNS / 5) },
    );
    assert.throws(() => new MergeTable().add(ID_SPAN, 0, 0, 1), RangeError);
    assert.throws(() => new MergeTable().add(0, 1, ID_SPAN, 2), RangeError);
  });
});

/** A tiny character-level tokenizer.json: letters, one merge, and the added tokens given. */
function tinyJson(added: { content: string; special?: boolean; normalized?: boolean }[] = []): TokenizerJson {
  const vocab: Record<string, number> = { a: 0, b: 1, c: 2, d: 3, x: 4, ab: 5, abc: 6 };
  return {
    normalizer: null,
    pre_tokenizer: null,
    model: { type: 'BPE', vocab, merges: ['a b'] },
    added_tokens: added.map((t, i) => ({ id: 100 + i, special: false, normalized: false, ...t })),
  };
}

describe("devboy's tokenizer.json counter", () => {
  it('counts the model: letters, then the merge', () => {
    assert.equal(new HfBpeCounter(tinyJson()).count('xabcd'), 4); // x ab c d
  });

  it('added tokens match leftmost-longest and count one each; special ones count as text', () => {
    assert.equal(new HfBpeCounter(tinyJson([{ content: 'ab' }, { content: 'abc' }])).count('xabcd'), 3); // x <abc> d
    assert.equal(new HfBpeCounter(tinyJson([{ content: 'abc', special: true }])).count('xabcd'), 4);
  });

  it('refuses, naming it, a part of the format it does not implement', () => {
    const json = tinyJson();
    assert.throws(() => new HfBpeCounter({ ...json, normalizer: { type: 'Lowercase' } }), /normalizer Lowercase/);
    assert.throws(() => new HfBpeCounter({ ...json, pre_tokenizer: { type: 'Metaspace' } }), /pre-tokenizer Metaspace/);
    assert.throws(() => new HfBpeCounter({ ...json, model: { ...json.model, type: 'Unigram' } }), /model Unigram/);
    assert.throws(() => new HfBpeCounter(tinyJson([{ content: 'ab', lstrip: true } as never])), /lstrip/);
  });

  it("rewrites Oniguruma's scoped case-insensitive group for JavaScript, and refuses other inline flags", () => {
    const re = new RegExp(toJsPattern("(?i:'s|'t|'re)|\\p{L}+"), 'gu');
    assert.deepEqual("IT'S they'Re".match(re), ['IT', "'S", 'they', "'Re"]);
    assert.throws(() => toJsPattern('(?x) a'), /pattern/);
    assert.equal(toJsPattern('(?:a)|(?=b)|(?!c)|(?<=d)'), '(?:a)|(?=b)|(?!c)|(?<=d)');
  });
});
