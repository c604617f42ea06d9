import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BUCKETS_FROM_BYTES } from '../src/tokens/bpe-counter.js';
import { loadTokenizer } from '../src/tokens/registry.js';
import { BPE_NAMES, forcedCounters, libraryCount } from './helpers/bpe-reference.js';
import { anyCodePoint, scaledRuns } from './helpers/arbitraries.js';

const SPECIAL = [
  '<|endoftext|>',
  '<|fim_prefix|>',
  '<|fim_middle|>',
  '<|fim_suffix|>',
  '<|im_start|>',
  '<|im_end|>',
  '<|im_sep|>',
  '<|endofprompt|>',
];
/** Characters of every UTF-8 length, whitespace the split regexes treat apart, a BOM, lone surrogates. */
const CHARS = [
  'a',
  'Z',
  'é',
  'ß',
  'ж',
  'ا',
  '中',
  '€',
  '😀',
  '👍🏽',
  'e\u0301',
  '0',
  '7',
  ' ',
  '\t',
  '\n',
  '\r',
  '\u00a0',
  '\u3000',
  '-',
  '=',
  '.',
  '*',
  '"',
  "'",
  '/',
  '\\',
  '{',
  '}',
  '\uFEFF',
  '\uD800',
  '\uDFFF',
  '\uFFFD',
];

const char = fc.constantFrom(...CHARS);
const segment = fc.oneof(
  // long runs of one character: one pre-tokenized piece, what made the library quadratic
  fc.tuple(char, fc.integer({ min: 1, max: 700 })).map(([c, n]) => c.repeat(n)),
  // repeated short patterns
  fc.tuple(fc.array(char, { minLength: 1, maxLength: 4 }), fc.integer({ min: 1, max: 120 })).map(([cs, n]) => cs.join('').repeat(n)),
  fc.stringMatching(/^[0-9]{1,40}$/),
  fc.tuple(fc.constantFrom(' ', '\t', '\n', '\r\n', ' \n', '\u00a0'), fc.integer({ min: 1, max: 300 })).map(([w, n]) => w.repeat(n)),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
  fc.string({ unit: anyCodePoint, maxLength: 30 }),
  fc.array(char, { maxLength: 30 }).map((cs) => cs.join('')),
  fc.constantFrom(...SPECIAL),
  fc.stringMatching(/^[a-z]{1,300}$/),
);
const text = fc.array(segment, { maxLength: 8 }).map((parts) => parts.join(''));

describe('token counts on random text equal gpt-tokenizer countTokens', () => {
  for (const name of BPE_NAMES) {
    it(`${name}: runs, patterns, digits, whitespace, unicode, emoji, special-token text`, async () => {
      const [reference, tokenizer, { scan, buckets }] = await Promise.all([libraryCount(name), loadTokenizer(name), forcedCounters(name)]);
      fc.assert(
        fc.property(text, (t) => {
          const want = reference(t);
          assert.equal(tokenizer.count(t), want);
          assert.equal(scan.count(t), want);
          assert.equal(buckets.count(t), want);
        }),
        { numRuns: scaledRuns(400) },
      );
    });

    it(`${name}: pieces just below, at and above the length where the merge switches`, async () => {
      const [reference, tokenizer] = await Promise.all([libraryCount(name), loadTokenizer(name)]);
      // One piece of a given UTF-8 length: a lowercase word, a run of one letter, a run of a 2-, 3- or 4-byte character.
      const piece = fc.oneof(
        fc
          .integer({ min: BUCKETS_FROM_BYTES - 6, max: BUCKETS_FROM_BYTES + 6 })
          .chain((n) => fc.stringMatching(new RegExp(`^[a-z]{${n}}$`))),
        fc.tuple(fc.constantFrom('a', 'é', '中', '😀', '-', ' '), fc.integer({ min: -6, max: 6 })).map(([c, d]) => {
          const width = Buffer.byteLength(c);
          return c.repeat(Math.ceil(BUCKETS_FROM_BYTES / width) + Math.trunc(d / width));
        }),
      );
      fc.assert(
        fc.property(piece, (p) => {
          assert.equal(tokenizer.count(p), reference(p));
        }),
        { numRuns: scaledRuns(300) },
      );
    });
  }
});
