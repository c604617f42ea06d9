import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { SaxesParser } from 'saxes';
import { baselineFormats, candidateFormats, type BaselineFormatName } from '../src/formats/info.js';
import { lossReport, lossSummary } from '../src/formats/loss.js';
import { FORMAT_NAMES, loadFormat, type FormatName } from '../src/formats/registry.js';
import { verifyRoundTrip } from '../src/formats/verify.js';
import { jsonEqual } from '../src/json/equal.js';
import { isJsonNumber, numberLoss } from '../src/json/numbers.js';
import type { JsonObject, JsonValue } from '../src/json/types.js';
import { anyCodePoint, anyJson, identifierKey, jsonValueLike, PROPERTY_RUNS, scaledRuns } from './helpers/arbitraries.js';
import { REPO_ROOT } from './helpers/paths.js';

const BASELINES = baselineFormats();
const seed = Number(process.env.DEVBOY_SEED ?? Date.now() % 2 ** 31);
/**
 * Values per property: the baselines are upstream codecs devboy compares against, checked here for
 * what they keep and what verify says they lose. 100 in the fast suite (a new seed each run), 10,000
 * in npm run test:corpus.
 */
const BASELINE_RUNS = scaledRuns(PROPERTY_RUNS);
/** verify against an independent comparison: a fifth of the property runs (100 and 2,000). */
const VERIFY_RUNS = Math.ceil(PROPERTY_RUNS / 5);

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
    it(`${name}: ${BASELINE_RUNS} generated lists of the values it keeps come back exactly`, async () => {
      const format = await loadFormat(name as FormatName);
      fc.assert(
        fc.property(keeps, (value) => {
          const back = format.decode(format.encode(value));
          assert.ok(jsonEqual(back, value), `${name} changed ${JSON.stringify(value)} into ${JSON.stringify(back)}`);
        }),
        { numRuns: BASELINE_RUNS, seed },
      );
    });
  }

  for (const name of BASELINES) {
    it(`${name}: on any JSON value, verify and the loss report agree with an independent comparison (${VERIFY_RUNS} values)`, async () => {
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
        { numRuns: VERIFY_RUNS, seed },
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

/** The strict reading of XML 1.0: saxes reports every well-formedness error (characters, names, references). */
function wellFormed(text: string): string | null {
  const parser = new SaxesParser();
  let error: string | null = null;
  parser.on('error', (e) => {
    error ??= e.message;
  });
  parser.write(text).close();
  return error;
}

describe('XML 1.0: what the codec writes is well-formed, or the encode is refused with its reason', () => {
  const xmlKey = fc.oneof(
    fc.string({ unit: anyCodePoint, maxLength: 6 }),
    fc.constantFrom('+1', '-1', '', '1st', 'a b', '😀', '_x0041_', '_x0001F600_', '#text', '@_kind', '@_+1', '@_', 'xml', 'a:b', '\uFFFE'),
  );

  it(`every value, with any keys and characters: the text parses strictly, or the encoder says why not (${BASELINE_RUNS} values)`, async () => {
    const xml = await loadFormat('xml');
    fc.assert(
      fc.property(fc.oneof(anyJson, jsonValueLike(xmlKey)), (value) => {
        let text: string;
        try {
          text = xml.encode(value);
        } catch (err) {
          // The one refusal: a lone surrogate, which UTF-8 cannot carry (anyJson's fc.jsonValue makes none).
          assert.match((err as Error).message, /^lone surrogate .* at \$/);
          return;
        }
        assert.equal(wellFormed(text), null, `${JSON.stringify(value)} -> ${JSON.stringify(text)}`);
      }),
      { numRuns: BASELINE_RUNS, seed },
    );
  });

  it(`a key that is no XML name is escaped as XmlConvert.EncodeName does, and read back: any key but "", #text and @_ ones (${BASELINE_RUNS} values)`, async () => {
    const xml = await loadFormat('xml');
    const key = xmlKey.filter((k) => k !== '' && k !== '#text' && !k.startsWith('@_'));
    fc.assert(
      fc.property(items(key, fc.stringMatching(/^[a-z]{1,6}$/)), (value) => {
        const back = xml.decode(xml.encode(value));
        assert.ok(jsonEqual(back, value), `xml changed ${JSON.stringify(value)} into ${JSON.stringify(back)}`);
      }),
      { numRuns: BASELINE_RUNS, seed },
    );
  });

  it('a key holding a character JavaScript counts as white space but XML allows in a name (U+FEFF, U+1680) is escaped and read back', async () => {
    const xml = await loadFormat('xml');
    // fast-check found the item {"\uFEFF":"a","+1":"a"}: fast-xml-parser read U+FEFF in a name as white space.
    const value: JsonValue = [
      { '\uFEFF': 'a', '+1': 'a' },
      { 'a\u1680b': 1, 'x\uFEFF': 2 },
    ];
    const text = xml.encode(value);
    assert.ok(text.includes('<_xFEFF_>') && text.includes('<a_x1680_b>') && text.includes('<x_xFEFF_>'), text);
    assert.deepEqual(xml.decode(text), value);
  });

  it("GitHub's reactions (+1, -1) and other odd keys: escaped names, the values kept", async () => {
    const xml = await loadFormat('xml');
    const value = [{ reactions: { '+1': 2, '-1': 1, '😀': 3, 'a b': 4, _x0041_: 5 }, '@_+1': 'x' }];
    const text = xml.encode(value);
    assert.equal(
      text,
      [
        '<items>',
        '  <item _x002B_1="x">',
        '    <reactions>',
        '      <_x002B_1>2</_x002B_1>',
        '      <_x002D_1>1</_x002D_1>',
        '      <_x0001F600_>3</_x0001F600_>',
        '      <a_x0020_b>4</a_x0020_b>',
        '      <_x005F_x0041_>5</_x005F_x0041_>',
        '    </reactions>',
        '  </item>',
        '</items>',
      ].join('\n'),
    );
    assert.equal(wellFormed(text), null);
    assert.deepEqual(verifyRoundTrip(xml, value), { lossless: true });
  });

  it('the empty key, which no name can be, is written `_x_`, and a key `_x_` escaped: both come back', async () => {
    const xml = await loadFormat('xml');
    const value = [{ '': 'x', _x_: 'y', '@_': 'a', '@__x_': true }];
    const text = xml.encode(value);
    assert.equal(text, '<items>\n  <item _x_="a" _x005F_x_="true">\n    <_x_>x</_x_>\n    <_x005F_x_>y</_x005F_x_>\n  </item>\n</items>');
    assert.equal(wellFormed(text), null);
    assert.deepEqual(verifyRoundTrip(xml, value), { lossless: true });
  });

  it('a character XML 1.0 cannot hold (U+0001, U+FFFE) is written U+FFFD, and the round trip reports it at its path', async () => {
    const xml = await loadFormat('xml');
    const value: JsonValue = [{ title: 'ok' }, { title: 'bell\u0001 and \uFFFE', '@_kind': 'a\u001Fb' }];
    const text = xml.encode(value);
    assert.equal(
      text,
      '<items>\n  <item>\n    <title>ok</title>\n  </item>\n  <item kind="a\uFFFDb">\n    <title>bell\uFFFD and \uFFFD</title>\n  </item>\n</items>',
    );
    assert.equal(wellFormed(text), null);
    const check = verifyRoundTrip(xml, value);
    assert.equal(check.reason, 'xml value changed at $[1].title (expected "bell\\u0001 and \uFFFE"; got "bell\uFFFD and \uFFFD")');
    assert.deepEqual(
      lossReport(value, xml.decode(text)).paths.map((p) => `${p.path}: ${p.what}`),
      ['title: changed: string', '["@_kind"]: changed: string'],
    );
  });

  it('reads XML 1.0 strictly: a character it does not allow, raw or as a reference, is refused with its line and column', async () => {
    const xml = await loadFormat('xml');
    const refused = (text: string) => {
      try {
        xml.decode(text);
      } catch (err) {
        const e = err as Error & { location?: { line?: number; col?: number } };
        return `${e.location?.line}:${e.location?.col} ${e.message}`;
      }
      return 'accepted';
    };
    assert.equal(refused('<items>\n  <item>\n    <a>x\u0001y</a>'), '3:9 invalid XML: character U+0001 is not allowed in XML 1.0');
    assert.equal(refused('<value>&#1;</value>'), '1:8 invalid XML: character reference &#1; names U+0001, which XML 1.0 does not allow');
    assert.equal(
      refused('<value>&#xFFFE;</value>'),
      '1:8 invalid XML: character reference &#xFFFE; names U+FFFE, which XML 1.0 does not allow',
    );
    assert.equal(refused('<item><_x0041_>1</_x0041_><A>2</A></item>'), '1:1 invalid XML: elements _x0041_ and A both name the key "A"');
  });
});

describe('YAML (upstream yaml): every value without a line break comes back; a known loss with one', () => {
  it(`keeps every JSON value whose strings and keys hold no line break (${BASELINE_RUNS} values)`, async () => {
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
      { numRuns: BASELINE_RUNS, seed },
    );
  });

  it(`keeps every JSON value whose strings have several lines, blank ones, trailing line breaks, but no line of one space between two (${BASELINE_RUNS} values)`, async () => {
    const yaml = await loadFormat('yaml');
    // Left out: upstream's known losses (the tests below); everything else a block or a quoted string must hold.
    const line = fc.oneof(
      fc.constantFrom('', '  ', '\t', '   x', '#', '- x', '"q"', "'s'", 'a: b', '|', '>', '...', '---', '\r'),
      fc.string({ unit: anyCodePoint, maxLength: 8 }),
      fc.string({ minLength: 40, maxLength: 100 }),
    );
    const text = fc
      .tuple(fc.array(line, { maxLength: 6 }), fc.constantFrom('', '\n', '\n\n', '\n\n\n', ' \n', '\r\n'))
      .map(([lines, end]) => lines.join('\n') + end)
      .filter((t) => !t.includes('\n \n') && !(/^[ \t\n]*\n$/.test(t) && /[ \t]/.test(t)));
    const value = fc.oneof(
      text.filter((t) => !/^[ \n]*/.exec(t)![0].includes(' ')),
      fc.array(fc.dictionary(fc.oneof(identifierKey, text), fc.oneof(text, fc.integer(), fc.constant(null)), { maxKeys: 4 }), {
        maxLength: 3,
      }),
    ) as fc.Arbitrary<JsonValue>;
    fc.assert(
      fc.property(value, (v) => {
        const back = yaml.decode(yaml.encode(v));
        assert.ok(JSON.stringify(back) === JSON.stringify(v), `yaml changed ${JSON.stringify(v)} into ${JSON.stringify(back)}`);
      }),
      { numRuns: BASELINE_RUNS, seed },
    );
  });

  it('keeps a text ending in blank lines at the end of the document (a Jira comment at standard level)', async () => {
    const yaml = await loadFormat('yaml');
    const value = [{ author: 'x', body: 'Studio on a proxy.\n\n\n' }];
    assert.equal(yaml.encode(value), '- author: x\n  body: |+\n    Studio on a proxy.\n\n\n');
    assert.deepEqual(verifyRoundTrip(yaml, value), { lossless: true });
  });

  it('writes block style as people paste it, with no line folded: a long line stays one line, a multi-line string a literal block', async () => {
    const yaml = await loadFormat('yaml');
    const title = `When tried to install the Titanium SDK 2.13.GA, it shows "[ERROR] No releases found!" in the terminal`;
    assert.equal(
      yaml.encode([{ key: 'AC-1071', title, body: 'Steps:\n1. run it\n2. see it fail' }]),
      `- key: AC-1071\n  title: ${title}\n  body: |-\n    Steps:\n    1. run it\n    2. see it fail\n`,
    );
  });

  it('keeps a diff with a line over 80 columns and blank context lines (yaml folded it into a `>` block and added a line break)', async () => {
    const yaml = await loadFormat('yaml');
    const value = [
      {
        diff: '@@ -547,6 +576,6 @@ async fn lookup_zulip_username(ctx: &Context, gh_username: &str) -> anyhow::Result<u64> {\n \n \n-    x',
      },
    ];
    const check = verifyRoundTrip(yaml, value);
    assert.equal(check.lossless, true, check.reason);
    assert.match(yaml.encode(value), /^- diff: \|-\n/);
  });

  it('loses a long double-quoted string with a line of one space (upstream: it escapes that space twice), and verify names the path', async () => {
    const yaml = await loadFormat('yaml');
    // A string that ends in a line of spaces cannot be a block scalar; over 40 characters, yaml
    // writes it double-quoted over several lines, and writes a line of one space as `\\ `.
    const value = [{ patch: '@@ -79,7 +79,6 @@ struct Message\n \n ' }];
    assert.equal(yaml.encode(value), '- patch: "@@ -79,7 +79,6 @@ struct Message\n\n    \\\\ \n\n    \\ "\n');
    const check = verifyRoundTrip(yaml, value);
    assert.equal(
      check.lossless,
      false,
      'upstream yaml now keeps it: update docs/formats/baselines.md, FORMAT_INFO.yaml and test/fixtures/yaml-known-losses.json',
    );
    assert.equal(
      check.reason,
      'yaml value changed at $[0].patch (expected "@@ -79,7 +79,6 @@ struct Message\\n \\n "; got "@@ -79,7 +79,6 @@ struct Message\\n\\\\\\n ")',
    );
    assert.deepEqual(lossReport(value, yaml.decode(yaml.encode(value))).paths, [{ path: 'patch', what: 'changed: string', values: 1 }]);
  });

  it('two more upstream losses, outside the corpus: a text of spaces and line breaks only, and a document that is one text whose first line starts with a space', async () => {
    const yaml = await loadFormat('yaml');
    // A block with no indentation indicator: its one line of spaces reads as indentation.
    assert.equal(yaml.encode([{ a: ' \n' }]), '- a: |+\n     \n');
    assert.equal(verifyRoundTrip(yaml, [{ a: ' \n' }]).reason, 'yaml value changed at $[0].a (expected " \\n"; got "\\n")');
    // At the root the indicator is 1 but the lines are not indented.
    assert.equal(yaml.encode(' a\n b'), '|1-\n a\n b\n');
    assert.equal(verifyRoundTrip(yaml, ' a\n b').reason, 'yaml value changed at $ (expected " a\\n b"; got "a\\nb")');
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
