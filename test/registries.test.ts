import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tokenizerImplementation } from '../src/benchmark/versions.js';
import { FORMAT_INFO } from '../src/formats/info.js';
import { FORMAT_NAMES, loadFormat } from '../src/formats/registry.js';
import { DATASET_KINDS } from '../src/model/index.js';
import { PROVIDER_NAMES, PROVIDERS } from '../src/providers/registry.js';
import { loadTokenizer, TOKENIZER_NAMES } from '../src/tokens/registry.js';
import { devboyVersion } from '../src/versions.js';
import { corpusExchanges } from './helpers/corpus-bodies.js';
import { REPO_ROOT } from './helpers/paths.js';

// Everything devboy lists in a registry gets these checks without an edit here.

const installed = (name: string) =>
  (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

describe('provider registry', () => {
  it('every module is registered under its own name', () => {
    assert.deepEqual(PROVIDER_NAMES, Object.keys(PROVIDERS));
    for (const name of PROVIDER_NAMES) assert.equal(PROVIDERS[name].name, name);
  });

  it('every provider models recorded URLs of its own corpus folder, and no URL is claimed by two providers', async () => {
    const claimed = new Map<string, number>();
    for (const ex of await corpusExchanges()) {
      const owners = PROVIDER_NAMES.filter((p) => PROVIDERS[p].classify(ex.request.url).length > 0);
      assert.ok(owners.length <= 1, `${ex.file}: claimed by ${owners.join(' and ')}`);
      if (owners[0]) {
        assert.equal(owners[0], ex.file.split('/')[0], `${ex.file} is claimed by another provider`);
        claimed.set(owners[0], (claimed.get(owners[0]) ?? 0) + 1);
      }
    }
    for (const name of PROVIDER_NAMES) assert.ok((claimed.get(name) ?? 0) > 0, `no recorded URL of ${name} is modelled`);
  });

  it('every provider reads credentials from its own variables and names them in its hint', () => {
    for (const name of PROVIDER_NAMES) {
      const m = PROVIDERS[name];
      const creds = m.credentials({ host: 'https://example.test', token: 't0k3n' }, {});
      assert.equal(creds.apiUrl, 'https://example.test');
      assert.equal(creds.token, 't0k3n');
      assert.match(m.authHint, /[A-Z]+_[A-Z_]+/, `${name}: the hint names a variable`);
    }
  });

  it('every provider item shape yields a known kind', () => {
    for (const name of PROVIDER_NAMES) {
      for (const shape of PROVIDERS[name].itemShapes('https://example.test')) {
        assert.equal(shape.provider, name);
        assert.ok(DATASET_KINDS.includes(shape.kind), `${shape.name}: ${shape.kind}`);
      }
    }
  });
});

describe('format registry', () => {
  it('every format is described and loads under its own name, with the media type and extension it declares', async () => {
    assert.deepEqual(Object.keys(FORMAT_INFO).sort(), [...FORMAT_NAMES].sort());
    for (const name of FORMAT_NAMES) {
      const f = await loadFormat(name);
      assert.equal(f.name, name);
      assert.match(f.extension, /^\.[a-z]+$/);
      assert.match(f.mediaType, /^[a-z]+\/[a-z0-9.+-]+$/);
      assert.ok(['exact', 'known-losses'].includes(f.roundTrip));
    }
  });

  it('implementations name the versions really installed (read from their package.json, never written in code)', () => {
    assert.equal(FORMAT_INFO.toon.implementation, `@toon-format/toon ${installed('@toon-format/toon')}`);
    assert.match(
      FORMAT_INFO.gcf.implementation,
      new RegExp(`^@blackwell-systems/gcf ${installed('@blackwell-systems/gcf').replace(/\./g, '\\.')} `),
    );
    assert.equal(devboyVersion(), (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string }).version);
  });
});

describe('tokenizer registry', () => {
  for (const name of TOKENIZER_NAMES) {
    it(`${name} loads, names itself and its implementation, and counts`, async () => {
      const t = await loadTokenizer(name);
      assert.equal(t.name, name);
      assert.equal(t.count(''), 0);
      assert.ok(t.count('devboy counts tokens') > 0);
      const impl = tokenizerImplementation(name);
      if (t.estimate) assert.match(impl, /estimate/);
      else assert.match(impl, new RegExp(`gpt-tokenizer ${installed('gpt-tokenizer').replace(/\./g, '\\.')}`));
    });
  }
});
