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
});
