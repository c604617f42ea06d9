import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, it } from 'node:test';
import { FORMAT_INFO } from '../src/formats/info.js';
import { FORMAT_NAMES, loadFormat } from '../src/formats/registry.js';
import { verifyRoundTrip } from '../src/formats/verify.js';
import { corpusExchanges } from './helpers/corpus-bodies.js';
import { FIXTURES } from './helpers/paths.js';

interface KnownLosses {
  cases: { name: string; input: unknown; loss: 'key-order' | 'value' | 'decode-error' }[];
  corpus: { files: string[] };
}
const known = JSON.parse(readFileSync(join(FIXTURES, 'gcf-known-losses.json'), 'utf8')) as KnownLosses;

describe('every response body in the corpus round-trips', () => {
  for (const name of FORMAT_NAMES) {
    it(name, async () => {
      const format = await loadFormat(name);
      const exchanges = await corpusExchanges();
      assert.ok(exchanges.length > 200, 'the corpus should hold over 200 exchanges');
      const lossy: string[] = [];
      for (const ex of exchanges) {
        const check = verifyRoundTrip(format, ex.response.body);
        if (check.lossless) continue;
        lossy.push(ex.file);
        // The only tolerated loss is a documented one (GCF's key order), and verify must name it.
        assert.equal(FORMAT_INFO[name].roundTrip, 'known-losses', `${name} does not round-trip ${ex.file}: ${check.reason}`);
        assert.equal(check.difference?.kind, 'key-order', `${ex.file}: ${check.reason}`);
        assert.ok(isDeepStrictEqual(format.decode(format.encode(ex.response.body)), ex.response.body), `${ex.file}: values changed`);
      }
      if (name === 'gcf')
        assert.deepEqual(
          lossy.sort(),
          [...known.corpus.files].sort(),
          'the recorded list of GCF losses in test/fixtures/gcf-known-losses.json is out of date',
        );
    });
  }
});

describe('GCF known losses (test/fixtures/gcf-known-losses.json) are still losses, and verify reports them', () => {
  for (const c of known.cases) {
    it(c.name, async () => {
      const gcf = await loadFormat('gcf');
      const check = verifyRoundTrip(gcf, c.input as never);
      assert.equal(check.lossless, false, 'upstream now round-trips this: update docs/formats/gcf.md and the fixture');
      assert.ok(check.reason);
      if (c.loss === 'key-order') assert.equal(check.difference?.kind, 'key-order');
      if (c.loss === 'decode-error') assert.match(check.reason, /decoder rejected/);
      if (c.loss === 'value') assert.notEqual(check.difference?.kind, 'key-order');
    });
  }
});
