import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import * as devboy from '../src/index.js';
import { loadFormat } from '../src/formats/registry.js';
import { loadTokenizer } from '../src/tokens/registry.js';
import { corpusExchanges } from './helpers/corpus-bodies.js';
import { REPO_ROOT } from './helpers/paths.js';
import { sample } from './helpers/sampling.js';

// src/index.ts is devboy's public API (docs/library.md). Its functions must give the answers the
// parts behind them give, and every export must be documented.

describe('the library API (src/index.ts)', () => {
  it('every runtime export is named in docs/library.md', () => {
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'library.md'), 'utf8');
    const missing = Object.keys(devboy).filter((name) => !doc.includes(`\`${name}`) && !new RegExp(`\\b${name}\\(`).test(doc));
    assert.deepEqual(missing, []);
  });

  it('encode, decode and countTokens agree with the formats and tokenizers behind them, on corpus bodies', async () => {
    const o200k = await loadTokenizer('o200k_base');
    // Bodies under 20 KB: every format's codec runs on each (the corpus-wide sweeps are elsewhere).
    const bodies = sample(
      (await corpusExchanges()).map((e) => e.response.body).filter((b) => JSON.stringify(b).length < 20_000),
      30,
    );
    for (const name of devboy.FORMAT_NAMES) {
      const format = await loadFormat(name);
      for (const body of bodies) {
        const text = await devboy.encode(body, name);
        assert.equal(text, format.encode(body), name);
        assert.deepEqual(await devboy.decode(text, name), format.decode(text), name);
        assert.equal(await devboy.countTokens(text), o200k.count(text), name);
      }
    }
    assert.equal(await devboy.countTokens('x'.repeat(35), 'heuristic'), 10);
  });

  it('an unknown format or tokenizer is a UsageError naming the known ones, from every entry point', async () => {
    // A JavaScript caller (or a name read from a config file) gets past the types.
    const format = 'nope' as devboy.FormatName;
    const tokenizer = 'gpt2' as devboy.TokenizerName;
    const unknownFormat = (err: unknown) => {
      assert.ok(err instanceof devboy.UsageError, String(err));
      assert.equal(err.exitCode, 2);
      assert.equal(err.oneLine(), `unknown format 'nope' (expected one of: ${devboy.FORMAT_NAMES.join(', ')})`);
      return true;
    };
    const unknownTokenizer = (err: unknown) => {
      assert.ok(err instanceof devboy.UsageError, String(err));
      assert.equal(err.oneLine(), `unknown tokenizer 'gpt2' (expected one of: ${devboy.TOKENIZER_NAMES.join(', ')})`);
      return true;
    };
    await assert.rejects(devboy.encode({ a: 1 }, format), unknownFormat);
    await assert.rejects(devboy.decode('{"a":1}', format), unknownFormat);
    await assert.rejects(devboy.loadFormat(format), unknownFormat);
    await assert.rejects(devboy.countTokens('x', tokenizer), unknownTokenizer);
    await assert.rejects(devboy.loadTokenizer(tokenizer), unknownTokenizer);
    // Names inherited from Object.prototype are not formats or tokenizers either.
    await assert.rejects(devboy.loadFormat('toString' as devboy.FormatName), devboy.UsageError);
    await assert.rejects(devboy.loadTokenizer('constructor' as devboy.TokenizerName), devboy.UsageError);
  });

  it('docs/library.md and src/index.ts name no subset of the formats for encode and decode', () => {
    // A list of formats restated in prose goes stale when a format is added: they refer to FORMAT_NAMES.
    const doc = readFileSync(join(REPO_ROOT, 'docs', 'library.md'), 'utf8');
    const index = readFileSync(join(REPO_ROOT, 'src', 'index.ts'), 'utf8');
    const row = doc.split('\n').find((l) => l.startsWith('| `encode('));
    assert.ok(row, 'docs/library.md has a row for encode');
    for (const text of [row, ...index.split('\n').filter((l) => /\/\*\*.*(encoded|decoded)/.test(l))]) {
      const named = devboy.FORMAT_NAMES.filter((n) => text.includes(`\`${n}\``) || text.includes(` ${n},`) || text.includes(`(${n},`));
      assert.ok(named.length === 0 || named.length === devboy.FORMAT_NAMES.length, `names ${named.join(', ')} only: ${text}`);
    }
  });
});
