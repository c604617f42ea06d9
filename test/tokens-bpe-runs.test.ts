import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import api from 'gpt-tokenizer/encoding/o200k_base';
import cl100kApi from 'gpt-tokenizer/encoding/cl100k_base';
import { ByteRanks } from '../src/tokens/byte-ranks.js';
import { loadTokenizer } from '../src/tokens/registry.js';
import { BPE_NAMES, libraryCount, rawRanks, type BpeName } from './helpers/bpe-reference.js';
import { FULL_SUITE, sample } from './helpers/sampling.js';
import { scaledRuns } from './helpers/arbitraries.js';
import { REPO_ROOT } from './helpers/paths.js';

const TWO_MB = 2_000_000;
/**
 * The long runs the counter is checked on: 2 MB in the full suite, a tenth of that in the fast suite,
 * still far past every length at which the counter changes course (the bucket merge from 192 bytes,
 * no cache past 256, a bucket's queue trimmed past 1,024 entries) and past the library's spot checks.
 */
const LONG_RUN = FULL_SUITE ? TWO_MB : TWO_MB / 10;

/**
 * The count of a run of n copies of one character, as the library gives it, follows
 * c(n + p) = c(n) + q from some n0 on. Find the shortest period that holds over at least the upper
 * half of the library's counts `c` (c[n] for every n up to some length), and return the law it implies.
 */
function periodicLaw(c: number[]): { p: number; q: number; n0: number; at(n: number): number } | undefined {
  const last = c.length - 1;
  for (let p = 1; 4 * p <= last; p++) {
    const q = c[last]! - c[last - p]!;
    let n0 = last - p;
    while (n0 > 0 && c[n0 - 1 + p] === c[n0 - 1]! + q) n0--;
    if (n0 + p > last / 2) continue;
    return { p, q, n0, at: (n) => (n < n0 + p ? c[n]! : c[n0 + ((n - n0) % p)]! + q * Math.floor((n - n0) / p)) };
  }
  return undefined;
}

describe('long runs of one character', () => {
  for (const [i, name] of BPE_NAMES.entries()) {
    // The fast suite checks one character per encoding; the full suite both.
    for (const ch of sample(['a', ' '], 2, i)) {
      // The library is quadratic in a run's length: a 2 MB run takes it hours, so the long run's count
      // is checked against a law the library's own counts obey everywhere they can be had (every n up
      // to 700 in the full suite, up to where a period shows in the fast one, and spot checks up to
      // 20,000), not against the new counter itself.
      it(
        `${name}: a ${LONG_RUN.toLocaleString('en')}-character run of ${JSON.stringify(ch)} counts what the library's counts of shorter runs imply`,
        { timeout: 300_000 },
        async () => {
          const [reference, tokenizer] = await Promise.all([libraryCount(name), loadTokenizer(name)]);
          // In the fast suite, as few of the library's counts as show a period (one of up to 43 shows
          // within 176 counts, up to 175 within 701): 701 runs take it 0.2 s, 176 a twentieth of that.
          const small: number[] = [];
          let law: ReturnType<typeof periodicLaw> = undefined;
          for (const length of FULL_SUITE ? [701] : [176, 351, 701]) {
            while (small.length < length) small.push(reference(ch.repeat(small.length)));
            law = periodicLaw(small);
            if (law) break;
          }
          assert.ok(law, `no period in the library's counts of runs of ${JSON.stringify(ch)} up to 700`);
          // The library's time grows with the square of n: the longest spot checks are for the full suite.
          for (const n of FULL_SUITE ? [1_001, 4_097, 8_191, 12_345, 20_000] : [1_001, 4_097]) {
            assert.equal(reference(ch.repeat(n)), law.at(n), `library, n=${n}, law p=${law.p} q=${law.q}`);
          }
          for (const n of FULL_SUITE ? [LONG_RUN - 1, LONG_RUN, LONG_RUN + 1] : [LONG_RUN + 1]) {
            assert.equal(tokenizer.count(ch.repeat(n)), law.at(n), `n=${n}, law p=${law.p} q=${law.q} from n0=${law.n0}`);
          }
        },
      );
    }
  }

  it(`the law is not trivial: a run of ${LONG_RUN.toLocaleString('en')} "a" is ${(LONG_RUN / 8).toLocaleString('en')} tokens in both encodings`, async () => {
    for (const name of BPE_NAMES) assert.equal((await loadTokenizer(name)).count('a'.repeat(LONG_RUN)), LONG_RUN / 8);
  });

  it('counts as many tokens as the library for runs across the whole range it can still do', async () => {
    const RUNS = [
      ['-', 5_000],
      ['=', 3_333],
      ['\n', 4_000],
      ['😀', 2_500],
      ['中', 3_000],
      ['é', 4_001],
      ['ab', 2_000],
      ['\uFEFF', 1_000],
    ] as const;
    for (const [i, name] of BPE_NAMES.entries()) {
      const [reference, tokenizer] = await Promise.all([libraryCount(name), loadTokenizer(name)]);
      // Every run in both encodings in the full suite; in the fast one each run in one encoding, in turn.
      for (const [ch, n] of sample(RUNS, 2, i)) {
        const t = `x ${ch.repeat(n)} y`;
        assert.equal(tokenizer.count(t), reference(t), `${name}: ${JSON.stringify(ch)} x ${n}`);
      }
    }
  });
});

/** gpt-tokenizer's own lookup of a byte string's rank, a private method of its encoder: read here only to pin ours to it. */
function libraryLookup(name: BpeName): (bytes: Uint8Array) => number | undefined {
  const encoding = (name === 'o200k_base' ? api : cl100kApi) as unknown as {
    bytePairEncodingCoreProcessor: { getBpeRankFromBytes(bytes: Uint8Array): number | undefined };
  };
  const core = encoding.bytePairEncodingCoreProcessor;
  return (bytes) => core.getBpeRankFromBytes(bytes);
}

/** js-tiktoken's rank table: lines of `prefix first-rank token token ...`, each token base64 bytes ranked in turn. */
type TiktokenRanks = { pat_str: string; special_tokens: Record<string, number>; bpe_ranks: string };

/**
 * The table cut to the tokens whose bytes occur in `texts`, each at its own rank: the only ones
 * tiktoken's byte-pair merge can look up on those texts (every part it ranks is a run of a piece's
 * bytes), so it encodes them as with the whole table, which takes 1.4 s to build.
 */
function ranksWithin(ranks: TiktokenRanks, texts: readonly string[]): TiktokenRanks {
  const runs = new Set<string>();
  for (const bytes of texts.map((t) => Buffer.from(t, 'utf8')))
    for (let i = 0; i < bytes.length; i++) for (let j = i + 1; j <= bytes.length; j++) runs.add(bytes.subarray(i, j).toString('base64'));
  const kept: string[] = [];
  for (const line of ranks.bpe_ranks.split('\n')) {
    const [, first, ...tokens] = line.split(' ');
    tokens.forEach((token, k) => runs.has(token) && kept.push(`! ${Number(first) + k} ${token}`));
  }
  return { ...ranks, bpe_ranks: kept.join('\n') };
}

describe('rank lookups answer as the library does', () => {
  for (const [i, name] of BPE_NAMES.entries()) {
    // The fast suite takes every byte entry (not valid UTF-8, where the library's quirks are) and every
    // fourth text entry; the full suite every token.
    it(`${name}: every token's bytes, alone and after a byte-order mark`, async () => {
      const raw = await rawRanks(name);
      const ours = new ByteRanks(raw);
      const theirs = libraryLookup(name);
      const wrong: string[] = [];
      const bom = Buffer.from([0xef, 0xbb, 0xbf]);
      raw.forEach((value, rank) => {
        if (!FULL_SUITE && typeof value === 'string' && rank % 4 !== i) return;
        const bytes = typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);
        for (const b of [bytes, Buffer.concat([bom, bytes]), bytes.subarray(1)]) {
          const s = b.toString('latin1');
          if (ours.ofRange(s, 0, s.length) !== theirs(b))
            wrong.push(`${JSON.stringify([...b])}: ours ${ours.ofRange(s, 0, s.length)}, library ${theirs(b)}`);
        }
      });
      assert.deepEqual(wrong.slice(0, 10), []);
    });
  }

  // Tokens' own bytes rarely hold the malformed sequences where UTF-8 decoders differ: overlong
  // forms, encoded surrogates, code points past U+10FFFF, truncated and stray continuation bytes.
  const EDGE_BYTES = [
    0x00, 0x20, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbb, 0xbf, 0xc0, 0xc1, 0xc2, 0xc3, 0xdf, 0xe0, 0xe4, 0xed, 0xef, 0xf0, 0xf4,
    0xf5, 0xf8, 0xff,
  ];
  it('byte ranges of malformed and edge-case UTF-8 get the rank the library gives them', async () => {
    const raw = await rawRanks('o200k_base');
    const ours = new ByteRanks(raw);
    const theirs = libraryLookup('o200k_base');
    const token = fc.integer({ min: 0, max: raw.length - 1 }).map((rank) => {
      const value = raw[rank]!;
      return [...(typeof value === 'string' ? Buffer.from(value, 'utf8') : value)];
    });
    const range = fc
      .array(
        fc.oneof(
          fc.constantFrom(...EDGE_BYTES).map((b) => [b]),
          token,
        ),
        { minLength: 1, maxLength: 4 },
      )
      .map((parts) => Buffer.from(parts.flat()));
    fc.assert(
      fc.property(range, (b) => {
        const s = b.toString('latin1');
        assert.equal(ours.ofRange(s, 0, s.length), theirs(b), JSON.stringify([...b]));
      }),
      { numRuns: scaledRuns(20_000) },
    );
  });

  // Which reference devboy follows where gpt-tokenizer and tiktoken part (docs/tokenizers.md, "U+FEFF"):
  // gpt-tokenizer, the implementation every o200k_base figure names. Pinned, both ways: a change of
  // either library, or of devboy's counter, fails here.
  const BOM_RUN = '\uFEFF'.repeat(6) + 'aaaaa\n';
  const TIKTOKEN = 'js-tiktoken';
  it('U+FEFF runs: devboy counts as gpt-tokenizer does (15 tokens for 24 bytes), not as tiktoken (7)', async () => {
    assert.equal(Buffer.byteLength(BOM_RUN), 24);
    const [reference, tokenizer] = await Promise.all([libraryCount('o200k_base'), loadTokenizer('o200k_base')]);
    assert.equal(reference(BOM_RUN), 15);
    assert.equal(tokenizer.count(BOM_RUN), 15);
    assert.equal(tokenizer.count('\uFEFF'.repeat(8)), 16, 'a BOM alone is two tokens: its own token is never found');
    // The docs say so, with these figures.
    const docs = readFileSync(join(REPO_ROOT, 'docs', 'tokenizers.md'), 'utf8').replace(/\s+/g, ' ');
    assert.match(docs, /U\+FEFF[^.]*devboy follows gpt-tokenizer/);
    assert.match(docs, /`"\\uFEFF" x 6 \+ "aaaaa\\n"` \(24 bytes\): 15 tokens in devboy and gpt-tokenizer, 7 in tiktoken/);
  });
  it(
    "U+FEFF runs: tiktoken's algorithm (js-tiktoken, a port of OpenAI's tiktoken over bytes) counts 7 and 4",
    {
      skip: existsSync(join(REPO_ROOT, 'node_modules', TIKTOKEN, 'package.json'))
        ? false
        : `${TIKTOKEN} not installed (npm run install-tokenizers)`,
    },
    () => {
      const require = createRequire(join(REPO_ROOT, 'package.json'));
      const { Tiktoken } = require(join(REPO_ROOT, 'node_modules', TIKTOKEN, 'dist', 'lite.cjs')) as {
        Tiktoken: new (ranks: unknown) => { encode(text: string): number[] };
      };
      const loaded = require(join(REPO_ROOT, 'node_modules', TIKTOKEN, 'dist', 'ranks', 'o200k_base.cjs')) as TiktokenRanks & {
        default?: TiktokenRanks;
      };
      const tiktoken = new Tiktoken(ranksWithin(loaded.default ?? loaded, [BOM_RUN, '\uFEFF'.repeat(8)]));
      assert.equal(tiktoken.encode(BOM_RUN).length, 7);
      assert.equal(tiktoken.encode('\uFEFF'.repeat(8)).length, 4);
    },
  );

  it("reproduces the library's BOM quirk: a valid range starting with a BOM gets the rank of the rest", async () => {
    // TextDecoder drops a leading BOM, so gpt-tokenizer merges "\uFEFF名" into one token; tiktoken would not.
    const [reference, tokenizer] = await Promise.all([libraryCount('o200k_base'), loadTokenizer('o200k_base')]);
    for (const t of ['\uFEFF名', 'a\uFEFF名', '\uFEFF名单']) {
      assert.equal(reference(t), 1 + (t.startsWith('a') ? 1 : 0));
      assert.equal(tokenizer.count(t), reference(t), JSON.stringify(t));
    }
  });
});
