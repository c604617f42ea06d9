import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { baselineFormats, candidateFormats, type BaselineFormatName } from '../src/formats/info.js';
import { lossReport, lossSummary } from '../src/formats/loss.js';
import { FORMAT_NAMES, loadFormat, type FormatName } from '../src/formats/registry.js';
import { verifyRoundTrip } from '../src/formats/verify.js';
import { jsonEqual } from '../src/json/equal.js';
import { isJsonNumber, numberLoss } from '../src/json/numbers.js';
import type { JsonObject, JsonValue } from '../src/json/types.js';
import { anyCodePoint, anyJson, PROPERTY_RUNS } from './helpers/arbitraries.js';
import { REPO_ROOT } from './helpers/paths.js';

const BASELINES = baselineFormats();
const seed = Number(process.env.DEVBOY_SEED ?? Date.now() % 2 ** 31);

/**
 * Items whose keys follow one order: the first item has every key, the others a subsequence of them
 * (the columns are the keys in the order first seen), with values drawn from `value`.
 */
function items(key: fc.Arbitrary<string>, value: fc.Arbitrary<JsonValue>): fc.Arbitrary<JsonObject[]> {
  const item = (own: string[]) =>
    fc.tuple(...own.map(() => value)).map((vals) => {
      const o: JsonObject = {};
      own.forEach((k, i) => Object.defineProperty(o, k, { value: vals[i], enumerable: true, writable: true, configurable: true }));
      return o;
    });
  return fc
    .uniqueArray(key, { minLength: 1, maxLength: 5 })
    .chain((keys) =>
      fc
        .tuple(item(keys), fc.array(fc.subarray(keys, { minLength: 1 }).chain(item), { maxLength: 5 }))
        .map(([first, rest]) => [first, ...rest]),
    );
}

const text = fc.string({ unit: anyCodePoint, minLength: 1, maxLength: 12 });
const anyKey = fc.oneof(fc.string({ unit: anyCodePoint, maxLength: 6 }), fc.constantFrom('__proto__', 'a.b', 'a,b', '"', '|', '+1'));

/** What each baseline claims to keep (docs/formats/baselines.md): its property, checked on generated values. */
// YAML keeps every JSON value but one known upstream loss: its own suite is below.
const KEEPS: Record<Exclude<BaselineFormatName, 'yaml'>, fc.Arbitrary<JsonValue>> = {
  // Cells are text: any non-empty string under any key comes back, including commas, quotes and line breaks.
  csv: items(anyKey, text),
  // GFM trims a cell and reads `<br>` as a line break; everything else in a string comes back.
  'markdown-table': items(
    anyKey.filter((k) => k.trim() === k && !/[\r<]/.test(k)),
    text.filter((s) => s.replace(/^[ \t]+|[ \t]+$/g, '') === s && !/[\r<]/.test(s)),
  ),
  // A key is what comes before the first `: `; a value's lines go on indented, so only CR is lost.
  'markdown-kv': items(
    anyKey.filter((k) => !/[\r\n]|:( |$)/.test(k)),
    text.filter((s) => !s.includes('\r')),
  ),
  // XML names as keys; numbers, booleans and text that no type guess takes for one (no outer spaces).
  xml: items(
    fc.stringMatching(/^[a-wyz][a-z0-9_]{0,6}$/),
    fc.oneof(
      fc.integer(),
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((d) => !Object.is(d, -0)),
      fc.boolean(),
      fc
        .stringMatching(/^[A-Za-z<>&'" ,.é中-]{1,12}$/)
        .filter((s) => s.trim() === s && s !== 'true' && s !== 'false' && !(isJsonNumber(s) && numberLoss(s) === null)),
    ),
  ),
};

describe('each baseline keeps what it claims, and verify catches what it loses', () => {
  for (const [name, keeps] of Object.entries(KEEPS)) {
    it(`${name}: ${PROPERTY_RUNS} generated lists of the values it keeps come back exactly`, async () => {
      const format = await loadFormat(name as FormatName);
      fc.assert(
        fc.property(keeps, (value) => {
          const back = format.decode(format.encode(value));
          assert.ok(jsonEqual(back, value), `${name} changed ${JSON.stringify(value)} into ${JSON.stringify(back)}`);
        }),
        { numRuns: PROPERTY_RUNS, seed },
      );
    });
  }

  for (const name of BASELINES) {
    it(`${name}: on any JSON value, verify and the loss report agree with an independent comparison (${PROPERTY_RUNS} values)`, async () => {
      const format = await loadFormat(name);
      fc.assert(
        fc.property(anyJson, (value) => {
          let back: JsonValue | undefined;
          let rejected = false;
          try {
            back = format.decode(format.encode(value));
          } catch {
            rejected = true;
          }
          const check = verifyRoundTrip(format, value);
          assert.equal(check.lossless, !rejected && JSON.stringify(back) === JSON.stringify(value));
          if (!rejected) {
            const loss = lossReport(value, back);
            // An empty report is exactly an equal value (same types, values and key order).
            assert.equal(loss.lost === 0 && loss.paths.length === 0, check.lossless, JSON.stringify(value));
            assert.ok(loss.lost <= loss.values);
          }
        }),
        { numRuns: Math.ceil(PROPERTY_RUNS / 5), seed },
      );
    });
  }
});

describe('the loss report, on losses made on purpose', () => {
  it('a number in a CSV cell comes back as text: one value of two, at its path', async () => {
    const csv = await loadFormat('csv');
    const value = [{ id: 42, title: 'Fix login' }];
    assert.equal(csv.encode(value), 'id,title\n42,Fix login\n');
    const loss = lossReport(value, csv.decode(csv.encode(value)));
    assert.deepEqual(loss, {
      values: 2,
      lost: 1,
      share: 0.5,
      paths: [{ path: 'id', what: 'type changed: number -> string', values: 1 }],
      more_paths: 0,
    });
    assert.equal(lossSummary(loss), '50.0% of 2 values lost or changed (id: type changed: number -> string)');
  });

  it('a nested list in a Markdown table is JSON text in its cell: every value in it is lost', async () => {
    const md = await loadFormat('markdown-table');
    const value = [
      { title: 'a', labels: ['bug', 'ui'] },
      { title: 'b', labels: ['docs'] },
    ];
    assert.equal(md.encode(value), '| title | labels |\n| - | - |\n| a | ["bug","ui"] |\n| b | ["docs"] |');
    const loss = lossReport(value, md.decode(md.encode(value)));
    assert.equal(loss.values, 5);
    assert.equal(loss.lost, 3);
    assert.deepEqual(loss.paths, [{ path: 'labels', what: 'type changed: list -> string', values: 3 }]);
  });

  it('an attribute-like key in XML becomes an attribute: its value survives, the key order does not', async () => {
    const xml = await loadFormat('xml');
    const value = [{ id: 7, '@_kind': 'bug', title: 'x' }];
    assert.equal(xml.encode(value), '<items>\n  <item kind="bug">\n    <id>7</id>\n    <title>x</title>\n  </item>\n</items>');
    const back = xml.decode(xml.encode(value));
    assert.deepEqual(Object.keys((back as JsonObject[])[0]!), ['id', 'title', '@_kind']);
    const loss = lossReport(value, back);
    assert.equal(loss.lost, 0);
    assert.deepEqual(loss.paths, [{ path: '(item)', what: 'key order', values: 0 }]);
    assert.equal(verifyRoundTrip(xml, value).lossless, false);
  });

  it('XML: a one-element list becomes its element, an empty list and null vanish or turn to text', async () => {
    const xml = await loadFormat('xml');
    const value = [{ tags: ['only'], none: [], gone: null, n: '007' }];
    const loss = lossReport(value, xml.decode(xml.encode(value)));
    assert.deepEqual(
      loss.paths.map((p) => `${p.path}: ${p.what}`),
      ['tags: type changed: list -> string', 'none: dropped: empty list', 'gone: type changed: null -> string'],
    );
    assert.equal(loss.values, 4);
    assert.equal(loss.lost, 3, '"007" stays text: a type guess that rounds or drops zeros is not made');
  });

  it('a dropped nested object, an added key and a changed string are counted where they happen', () => {
    const loss = lossReport(
      [
        { user: { login: 'a', id: 1 }, title: 'x' },
        { user: null, title: 'y' },
      ],
      [{ title: 'x!' }, { user: null, title: 'y', extra: 1 }],
    );
    assert.equal(loss.values, 5);
    assert.equal(loss.lost, 3);
    assert.deepEqual(
      loss.paths.map((p) => [p.path, p.what, p.values]),
      [
        ['user', 'dropped: nested object', 2],
        ['title', 'changed: string', 1],
        ['extra', 'added: key', 0],
      ],
    );
  });

  it('lists at most five places and counts the rest', () => {
    const value = [{ a: 1, b: 2, c: 3, d: 4, e: 5, f: 6, g: 7 }];
    const loss = lossReport(value, [Object.fromEntries(Object.entries(value[0]!).map(([k, v]) => [k, String(v)]))]);
    assert.equal(loss.paths.length, 5);
    assert.equal(loss.more_paths, 2);
    assert.equal(loss.share, 1);
  });
});

describe('YAML (upstream yaml): every value without a line break comes back; a known loss with one', () => {
  it(`keeps every JSON value whose strings and keys hold no line break (${PROPERTY_RUNS} values)`, async () => {
    const yaml = await loadFormat('yaml');
    const flat = (v: JsonValue): JsonValue =>
      typeof v === 'string'
        ? v.replace(/[\r\n]/g, ' ')
        : Array.isArray(v)
          ? v.map(flat)
          : v !== null && typeof v === 'object'
            ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k.replace(/[\r\n]/g, ' '), flat(x)]))
            : v;
    fc.assert(
      fc.property(anyJson.map(flat), (value) => {
        const back = yaml.decode(yaml.encode(value));
        assert.ok(JSON.stringify(back) === JSON.stringify(value), `yaml changed ${JSON.stringify(value)} into ${JSON.stringify(back)}`);
      }),
      { numRuns: PROPERTY_RUNS, seed },
    );
  });

  it('loses a folded double-quoted string with a line of one space (a diff), and verify names the path', async () => {
    const yaml = await loadFormat('yaml');
    const value = [{ patch: '@@ -79,7 +79,6 @@ struct Message\n \n ' }];
    const check = verifyRoundTrip(yaml, value);
    assert.equal(check.lossless, false, 'upstream yaml now keeps it: update docs/formats/baselines.md and FORMAT_INFO.yaml');
    assert.equal(
      check.reason,
      'yaml value changed at $[0].patch (expected "@@ -79,7 +79,6 @@ struct Message\\n \\n "; got "@@ -79,7 +79,6 @@ struct Message\\n\\\\\\n ")',
    );
    assert.deepEqual(lossReport(value, yaml.decode(yaml.encode(value))).paths, [{ path: 'patch', what: 'changed: string', values: 1 }]);
  });

  it('refuses what JSON cannot hold, where it is', async () => {
    const yaml = await loadFormat('yaml');
    assert.throws(() => yaml.decode('a: .inf'), /YAML Infinity at \$\.a has no JSON value/);
    assert.throws(
      () => yaml.decode('a: 1\nb: 12345678901234567890'),
      (e: Error & { location?: { line?: number } }) => /cannot be held exactly/.test(e.message) && e.location?.line === 2,
    );
    assert.throws(
      () => yaml.decode('a: 1\na: 2'),
      (e: Error & { location?: { line?: number } }) => /unique/.test(e.message) && e.location?.line === 2,
    );
    assert.throws(() => yaml.decode(`${'['.repeat(5000)}${']'.repeat(5000)}`), /nesting deeper than 500 levels/);
  });
});

describe('baselines are measured, never recommended', () => {
  it("README's two format tables list the candidates and the baselines, each format under its role", () => {
    // A format's role is declared once (FORMAT_INFO); README is where a user reads it, so the two must agree.
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('\n## Formats\n'), readme.indexOf('\n## ', readme.indexOf('\n## Formats\n') + 1));
    const tables = section.split('\n\n').filter((block) => block.startsWith('| name |'));
    const names = (table: string) => [...table.matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
    assert.equal(tables.length, 2, 'README has a table of candidates and one of baselines under ## Formats');
    assert.deepEqual(names(tables[0]!), candidateFormats());
    assert.deepEqual(names(tables[1]!), BASELINES);
    assert.deepEqual([...candidateFormats(), ...BASELINES].sort(), [...FORMAT_NAMES].sort());
  });
});
