import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import fc from 'fast-check';
import { safeSplit, TokenCache } from '../src/benchmark/token-cache.js';
import { FORMAT_NAMES } from '../src/formats/types.js';
import type { Dataset } from '../src/model/index.js';
import { loadTokenizer } from '../src/tokens/registry.js';
import type { Tokenizer } from '../src/tokens/types.js';
import { datasetAtLevel, LEVELS } from '../src/trim/levels.js';
import { PROPERTY_RUNS } from './helpers/arbitraries.js';
import { allFormats, corpusDatasets } from './helpers/budget.js';
import { FULL_SUITE, sample, sampleFormats } from './helpers/sampling.js';

// The benchmark's token cache answers with the sum of its segments' counts: exact only if the BPE
// tokenizers' counts really add up at the splits it uses. These check that law against the real
// tokenizers on corpus text and on text built to break it.

const BPE = ['o200k_base', 'cl100k_base'] as const;
let tokenizers: Tokenizer[];
let datasets: Dataset[];

before(async () => {
  tokenizers = await Promise.all(BPE.map((n) => loadTokenizer(n)));
  datasets = await corpusDatasets();
});

const jsonLengths = new Map<Dataset, number>();
/** A list's size as JSON, which two tests pick lists by: each list is serialised once. */
function jsonLength(d: Dataset): number {
  let n = jsonLengths.get(d);
  if (n === undefined) jsonLengths.set(d, (n = JSON.stringify(d.raw).length));
  return n;
}

/** Characters the tokenizer law is most sensitive to: letter runs, contractions, marks, newlines, slashes. */
const tricky = fc.string({
  unit: fc.constantFrom(
    'a',
    'Z',
    'x',
    "'",
    "'s",
    "'LL",
    ' ',
    '  ',
    '\n',
    '\r\n',
    '\t',
    '/',
    '"',
    ':',
    ',',
    '{',
    '}',
    '1',
    '42',
    'é',
    'É',
    'ß',
    'Σ',
    '\u0301',
    '中',
    '😀',
    '<|endoftext|>',
    '_',
    '-',
    '.',
  ),
  maxLength: 60,
});

describe('token cache: counts add up where it splits', () => {
  it('count(text) is the sum of the counts of the two sides at every safe split (random text)', () => {
    fc.assert(
      fc.property(tricky, (text) => {
        for (const t of tokenizers) {
          const whole = t.count(text);
          for (let p = 1; p < text.length; p++) {
            if (safeSplit(text, p))
              assert.equal(t.count(text.slice(0, p)) + t.count(text.slice(p)), whole, `${t.name} at ${p}: ${JSON.stringify(text)}`);
          }
        }
      }),
      { numRuns: Math.ceil(PROPERTY_RUNS / 4) },
    );
  });

  it('the cache gives the tokenizer count of random text, fresh and after related text was counted', () => {
    fc.assert(
      fc.property(fc.array(tricky, { minLength: 1, maxLength: 6 }), (parts) => {
        for (const t of tokenizers) {
          const cache = new TokenCache(t);
          // Texts that share pieces, long enough for several segments, counted in turn through one cache.
          for (const text of [parts.join(''), parts.join('abc '), [...parts].reverse().join('xyz'), parts.join('').repeat(8)])
            assert.equal(cache.count(text), t.count(text), `${t.name}: ${JSON.stringify(text)}`);
        }
      }),
      { numRuns: Math.ceil(PROPERTY_RUNS / 4) },
    );
  });

  it('the cache gives the tokenizer count of every encoded corpus list, and of pieces cut anywhere in them', async () => {
    const formats = await allFormats();
    // The fast suite leaves out the lists over 100,000 characters of JSON (one of them cost more than all the rest).
    const lists = datasets.filter((d) => FULL_SUITE || jsonLength(d) <= 100_000);
    for (const t of tokenizers) {
      const cache = new TokenCache(t);
      for (const [i, ds] of sample(lists, 24, BPE.indexOf(t.name as never)).entries()) {
        for (const level of LEVELS) {
          for (const name of sampleFormats(FORMAT_NAMES, i)) {
            const text = formats[name].encode(datasetAtLevel(ds, level));
            assert.equal(cache.count(text), t.count(text), `${t.name} ${ds.project} ${ds.kind} ${level} ${name}`);
            if (level !== LEVELS[i % LEVELS.length]) continue;
            // Pieces starting and ending anywhere (in a word, in an escape, in a surrogate pair), as chunks would not.
            const a = Math.floor(text.length / 3);
            const b = Math.floor((2 * text.length) / 3) + 1;
            for (const piece of [text.slice(a, b), text.slice(1), text.slice(0, -1)])
              assert.equal(cache.count(piece), t.count(piece), `${t.name} ${ds.project} ${level} ${name} piece`);
          }
        }
        cache.clear();
      }
    }
  });
});

describe('token cache: what it saves', () => {
  it('a chunk that re-encodes items already counted costs the tokenizer a small part of its text', async () => {
    const formats = await allFormats();
    // The largest list (in the fast suite the largest up to 300,000 characters: 67 merge requests, not 150 Jira issues).
    const ds = datasets.filter((d) => FULL_SUITE || jsonLength(d) <= 300_000).reduce((a, b) => (jsonLength(b) > jsonLength(a) ? b : a));
    const items = datasetAtLevel(ds, 'full');
    // Each format's list and chunk, encoded once for both tokenizers.
    const encoded = FORMAT_NAMES.map((name) => ({
      name,
      list: formats[name].encode(items),
      chunk: formats[name].encode(items.slice(1, Math.ceil(items.length / 2))),
    }));
    for (const t of tokenizers) {
      for (const { name, list, chunk } of encoded) {
        const cache = new TokenCache(t);
        cache.count(list);
        const before = cache.tokenizedChars;
        assert.equal(cache.count(chunk), t.count(chunk));
        const share = (cache.tokenizedChars - before) / chunk.length;
        assert.ok(share < 0.05, `${t.name} ${name}: the tokenizer saw ${(100 * share).toFixed(1)}% of the chunk`);
      }
    }
  });

  it('a text counted again is not tokenized again; clear() forgets; an estimate is computed, not stored', async () => {
    const t = tokenizers[0]!;
    const cache = new TokenCache(t);
    const text = JSON.stringify(datasets[0]!.raw);
    const n = cache.count(text);
    const calls = cache.misses;
    assert.equal(cache.count(`${text}`), n);
    assert.equal(cache.misses, calls);
    cache.clear();
    assert.equal(cache.count(text), n);
    assert.ok(cache.misses > calls);

    const heuristic = new TokenCache(await loadTokenizer('heuristic'));
    assert.equal(heuristic.count('abcdefgh'), 3);
    assert.equal(heuristic.misses, 0);
  });
});

describe('token cache: texts that look alike', () => {
  // A stand-in count that adds up at every split (so the cache may cut anywhere it likes) and that
  // differs between texts of the same length: a segment taken for another of the same length, the
  // same ends and the same sampled characters would give a wrong total.
  const additive: Tokenizer = {
    name: 'o200k_base',
    estimate: false,
    count: (text) => {
      let n = 0;
      for (let i = 0; i < text.length; i++) n += text.charCodeAt(i);
      return n;
    },
  };
  const line = fc.array(fc.constantFrom('id', 'state', 'open', 'closed', 'x', 'y', '"', ':', ',', ' ', '\n', '{', '}', '1', '7'), {
    minLength: 20,
    maxLength: 80,
  });

  it('near-identical texts (one character changed, same length) each get their own count', () => {
    fc.assert(
      fc.property(fc.array(line, { minLength: 4, maxLength: 12 }), fc.nat(), fc.nat(), (lines, at, by) => {
        const base = lines.map((l) => l.join('')).join('\n');
        const p = at % base.length;
        // Same length, one character different: the ends, and most sampled characters, agree.
        const other = `${base.slice(0, p)}${String.fromCharCode(((base.charCodeAt(p) + 1 + (by % 20)) % 90) + 33)}${base.slice(p + 1)}`;
        const cache = new TokenCache(additive);
        for (const text of [base, other, base, `${other}${base}`, other]) assert.equal(cache.count(text), additive.count(text));
      }),
      { numRuns: Math.ceil(PROPERTY_RUNS / 4) },
    );
  });

  it('a text equal to a kept or recent one is not counted again; a different one of the same length is', () => {
    const t = tokenizers[0]!;
    const cache = new TokenCache(t);
    const a = JSON.stringify(datasets[0]!.raw);
    const b = `${a.slice(0, -2)}x${a.slice(-1)}`;
    assert.equal(b.length, a.length);
    const n = cache.keep(a);
    const misses = cache.misses;
    // Many other texts in between: a kept text outlives the few recent ones.
    for (let i = 0; i < 10; i++) cache.count(`${i}${a.slice(0, 100)}`);
    const afterOthers = cache.misses;
    assert.equal(cache.count(a), n);
    assert.equal(cache.misses, afterOthers, 'a kept text is answered without the tokenizer');
    assert.equal(cache.count(b), t.count(b));
    assert.ok(cache.misses > afterOthers, 'a same-length text is counted, not taken for the kept one');
    assert.ok(misses > 0);
    // The same for the few recent texts, remembered by length.
    const c = `${a.slice(0, 500)} the`;
    const d = `${a.slice(0, 500)}\u{1F600}\u{1F680}`;
    assert.equal(c.length, d.length);
    assert.notEqual(t.count(c), t.count(d), 'texts whose counts differ');
    assert.equal(cache.count(c), t.count(c));
    assert.equal(cache.count(d), t.count(d));
    assert.equal(cache.count(c), t.count(c));
  });
});
