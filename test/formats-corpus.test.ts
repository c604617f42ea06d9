import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { describe, it } from 'node:test';
import { FORMAT_INFO } from '../src/formats/info.js';
import { FORMAT_NAMES, loadFormat } from '../src/formats/registry.js';
import { lossReport } from '../src/formats/loss.js';
import { FULL_SUITE } from './helpers/sampling.js';
import { verifyRoundTrip } from '../src/formats/verify.js';
import { sampledExchanges } from './helpers/corpus-bodies.js';
import { FIXTURES } from './helpers/paths.js';

interface KnownLosses {
  cases: { name: string; input: unknown; loss: 'key-order' | 'value' | 'decode-error' }[];
  corpus: { files: string[] };
}
const known = JSON.parse(readFileSync(join(FIXTURES, 'gcf-known-losses.json'), 'utf8')) as KnownLosses;

describe('every response body in the corpus round-trips (those up to 30,000 characters in the fast suite)', () => {
  for (const name of FORMAT_NAMES.filter((n) => FORMAT_INFO[n].role === 'candidate')) {
    it(name, async () => {
      const format = await loadFormat(name);
      const exchanges = await sampledExchanges(1);
      assert.ok(exchanges.length > (FULL_SUITE ? 200 : 150), `${exchanges.length} exchanges`);
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
      if (name === 'gcf') {
        const checked = new Set(exchanges.map((e) => e.file));
        const expected = known.corpus.files.filter((f) => checked.has(f));
        assert.ok(expected.length >= (FULL_SUITE ? 10 : 3), `${expected.length} of the known losses checked`);
        assert.deepEqual(
          lossy.sort(),
          expected.sort(),
          'the recorded list of GCF losses in test/fixtures/gcf-known-losses.json is out of date',
        );
      }
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

const yamlKnown = JSON.parse(readFileSync(join(FIXTURES, 'yaml-known-losses.json'), 'utf8')) as { files: string[] };

describe('the baselines on the corpus bodies (a third of those up to 30,000 characters in the fast suite): what verify says, the loss report says', () => {
  for (const name of FORMAT_NAMES.filter((n) => FORMAT_INFO[n].role === 'baseline')) {
    it(name, async () => {
      const format = await loadFormat(name);
      const exchanges = await sampledExchanges(3);
      const lossy: string[] = [];
      for (const ex of exchanges) {
        const body = ex.response.body;
        const check = verifyRoundTrip(format, body);
        let back: unknown;
        let rejected = false;
        try {
          back = format.decode(format.encode(body));
        } catch {
          rejected = true;
        }
        const loss = rejected ? undefined : lossReport(body, back);
        // A lossless verdict has nothing to report; a lossy one names at least one place.
        if (check.lossless) assert.ok(loss && loss.paths.length === 0 && loss.lost === 0, `${ex.file}: ${JSON.stringify(loss)}`);
        else {
          lossy.push(ex.file);
          assert.ok(rejected || (loss && loss.paths.length > 0), `${ex.file}: lossy without a place`);
        }
      }
      if (name === 'yaml') {
        // yaml's one known loss (docs/formats/baselines.md): a long double-quoted string with a line of one space.
        const known = new Set(yamlKnown.files);
        const sampled = exchanges.filter((e) => known.has(e.file)).map((e) => e.file);
        assert.ok(sampled.length > 0, 'the bodies checked hold none of the known losses');
        assert.deepEqual(
          lossy.sort(),
          sampled.sort(),
          'the recorded list of YAML losses in test/fixtures/yaml-known-losses.json is out of date',
        );
      } else assert.ok(lossy.length > exchanges.length / 2, `${name} should lose something in most bodies (a typed value, a nested one)`);
    });
  }
});
