import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { DataError } from '../src/errors.js';
import { loadFormat } from '../src/formats/registry.js';
import { verifyRoundTrip } from '../src/formats/verify.js';
import type { JsonValue } from '../src/json/types.js';
import { jsonValueLike, identifierKey, PROPERTY_RUNS } from './helpers/arbitraries.js';
import { runCli } from './helpers/cli.js';
import { FULL_SUITE } from './helpers/sampling.js';

const dir = mkdtempSync(join(tmpdir(), 'devboy-gcf-hostile-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const gcf = await loadFormat('gcf');
const HEADER = 'GCF profile=generic\n';

/** The decoder's answer: the value, or the one-line error. */
function decoded(text: string): { value: JsonValue } | { error: string } {
  try {
    return { value: gcf.decode(text) };
  } catch (err) {
    assert.ok(err instanceof DataError, `not a DataError: ${String(err)}`);
    assert.ok(!err.message.includes('\n'), err.message);
    return { error: err.message };
  }
}

/** Objects, arrays and scalars of a decoded value. */
function size(value: unknown): number {
  let n = 0;
  const stack = [value];
  while (stack.length > 0) {
    const v = stack.pop();
    n++;
    if (v !== null && typeof v === 'object') for (const x of Object.values(v as object)) stack.push(x);
  }
  return n;
}

// The reference decoder (2.5.2) drops a table column whose ">" path runs through __proto__,
// constructor or prototype, and its encoder writes such a column for an object-valued member of that
// name. Dropped, the column was lost silently and `convert --verify` said verified. devboy refuses it.
describe('GCF: a column whose path runs through __proto__, constructor or prototype is refused, never dropped', () => {
  const UNSAFE = ['__proto__', 'constructor', 'prototype'];
  const cases: [string, string, number][] = [];
  for (const word of UNSAFE) {
    cases.push([`${word} first`, `## [2]{b,"${word}>polluted"}\n1|2\n3|4\n`, 2]);
    cases.push([`${word} last`, `## [2]{b,"x>${word}"}\n1|2\n3|4\n`, 2]);
    cases.push([`${word} in the middle`, `## [2]{b,"x>${word}>y"}\n1|2\n3|4\n`, 2]);
  }
  cases.push(['constructor>prototype', `## [2]{b,"constructor>prototype>x"}\n1|2\n3|4\n`, 2]);
  cases.push(['written with escapes', `## [2]{b,"\\u005f_proto__>polluted"}\n1|2\n3|4\n`, 2]);
  cases.push(['a named table in an object', `## rows [2]{b,"__proto__>polluted"}\n1|2\n3|4\n`, 2]);
  cases.push(['a nested table', `## outer\n  ## rows [2]{b,"__proto__>polluted"}\n  1|2\n  3|4\n`, 3]);
  cases.push(['an expanded item', `## [2]\n@0 [2]{b,"__proto__>polluted"}\n  1|2\n  3|4\n@1 =5\n`, 3]);
  cases.push(['a keyed map', `## [2:]{key,b,"__proto__>polluted"}\nA|1|2\nB|3|4\n`, 2]);
  cases.push(['an attachment table', `## [1]{b,att}\n@0 1|^\n.att [2]{x,"constructor>polluted"}\n    1|2\n    2|3\n`, 4]);

  for (const [name, body, line] of cases) {
    it(name, () => {
      const before = Object.getOwnPropertyNames(Object.prototype).length;
      const r = decoded(HEADER + body);
      assert.ok('error' in r, `decoded to ${JSON.stringify((r as { value: JsonValue }).value)}`);
      assert.match(r.error, /^GCF column ".*" is a path through (__proto__|constructor|prototype)/);
      assert.match(r.error, /the GCF reference decoder drops such a column/);
      assert.equal(Object.getOwnPropertyNames(Object.prototype).length, before, 'Object.prototype untouched');
      assert.equal(({} as Record<string, unknown>)['polluted'], undefined);
      // Where it is: the header line.
      assert.throws(
        () => gcf.decode(HEADER + body),
        (err: DataError) => err.location.line === line,
      );
    });
  }

  it('the same text in a cell, a key or a quoted value is data, and decodes', () => {
    for (const value of [
      [{ b: 1, note: 'x]{"__proto__>polluted"}' }],
      [{ b: 1, note: '^{"constructor>prototype"}' }],
      { 'x]{"__proto__>y"}': 1, '__proto__>y': 2 },
      [{ b: 'constructor>prototype>x' }, { b: '__proto__>y' }],
      { rows: [{ a: 1, 'prototype>x': 2 }] },
    ] as JsonValue[]) {
      const text = gcf.encode(value);
      assert.equal(JSON.stringify(gcf.decode(text)), JSON.stringify(value), text);
    }
  });

  it('an object-valued member named so, encoded by the library: the round trip fails as rejected, naming the column', () => {
    for (const word of UNSAFE) {
      const row = (b: number) => {
        const o: Record<string, JsonValue> = { b };
        Object.defineProperty(o, word, { value: { polluted: b + 1 }, enumerable: true, writable: true, configurable: true });
        return o;
      };
      const check = verifyRoundTrip(gcf, [row(1), row(3)]);
      assert.equal(check.lossless, false, word);
      assert.match(check.reason!, new RegExp(`decoder rejected.*GCF column "${word}>polluted"`), check.reason);
    }
  });

  it('property: a table with such a column spliced in anywhere is refused, whatever the other columns', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(identifierKey, { minLength: 1, maxLength: 4 }),
        fc.nat(4),
        fc.constantFrom(...UNSAFE),
        fc.array(fc.constantFrom('x', 'y'), { maxLength: 3 }),
        fc.integer({ min: 1, max: 4 }),
        (keys, at, word, rest, rows) => {
          const path = [word, ...rest, 'leaf'].join('>');
          const columns = [...keys];
          columns.splice(at % (keys.length + 1), 0, JSON.stringify(path));
          const lines = Array.from({ length: rows }, (_, i) => columns.map((_, j) => String(i * 10 + j)).join('|'));
          const r = decoded(`${HEADER}## [${rows}]{${columns.join(',')}}\n${lines.join('\n')}\n`);
          assert.ok('error' in r && r.error.includes(`"${path}"`), JSON.stringify(r));
        },
      ),
      { numRuns: Math.min(PROPERTY_RUNS, 300) },
    );
  });

  it('convert --from gcf --verify: exit 1, one line, nothing written, never "verified"', async () => {
    const input = join(dir, 'polluted.gcf');
    writeFileSync(input, `${HEADER}## [2]{b,"__proto__>polluted"}\n1|2\n3|4\n`);
    const out = join(dir, 'out.json');
    const r = await runCli(['convert', input, '--to', 'json', '--verify', '-o', out]);
    assert.equal(r.code, 1, r.stderr);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /polluted\.gcf:2:\d+: GCF column "__proto__>polluted" is a path through __proto__/);
    assert.doesNotMatch(r.stderr, /verified/);
    assert.equal(r.stdout, '');
  });
});

// A path column of d segments makes d - 1 objects in every row: 498 levels over a few thousand
// one-character rows decoded a 33 KB file into millions of objects (91 s, 3.9 GB). The decoded size
// is bounded against the input before decoding; these inputs are small enough that the old decoder
// finished them, so the test tells bounded from unbounded by counts, not by time.
describe('GCF: the decoded size is bounded against the input', () => {
  const deepPath = (depth: number) => JSON.stringify(Array.from({ length: depth }, () => 'a').join('>'));
  const table = (depth: number, rows: number) =>
    `${HEADER}## [${rows}]{${deepPath(depth)}}\n${Array.from({ length: rows }, () => '1').join('\n')}\n`;

  it('498 levels over 1,000 rows (3 KB, half a million objects): refused in one line, saying why', () => {
    const text = table(498, 1000);
    assert.ok(text.length < 4_000, `${text.length} bytes`);
    const r = decoded(text);
    assert.ok('error' in r, `decoded to ${size((r as { value: JsonValue }).value)} values from ${text.length} bytes`);
    assert.match(
      r.error,
      /^GCF would decode to about [\d,]+ values from [\d,]+ bytes \(\d+ objects a row from ">" paths\): more than devboy's limit of [\d,]+/,
    );
  });

  // 400 rows (498 levels of them decode to 200,000 values, a third of the grid's work) in the corpus
  // suite; 120 levels over 2,000 rows still decode to within 3% of the bound, and 498 over 2,000 are refused.
  const ROWS = FULL_SUITE ? [1, 50, 400, 2000] : [1, 50, 2000];

  it('what decodes stays within the bound, and what is refused would have exceeded it (depths x rows)', () => {
    for (const depth of [2, 8, 32, 120, 498]) {
      for (const rows of ROWS) {
        const text = table(depth, rows);
        const r = decoded(text);
        // The bound the message states: the larger of 250,000 values and 8 per input byte.
        const bound = Math.max(250_000, 8 * Buffer.byteLength(text));
        // A row: its object, depth - 1 objects from the path, and the leaf.
        const truth = 1 + rows * (depth + 1);
        if ('value' in r) {
          assert.equal(size(r.value), truth);
          assert.ok(truth <= bound, `${depth} x ${rows}: ${truth} values from ${text.length} bytes`);
        } else {
          assert.match(r.error, /^GCF would decode to about/);
          // The estimate (every input byte, and every line's path objects) is at most about twice the truth.
          assert.ok(truth > bound / 2, `${depth} x ${rows} refused, though only ${truth} values`);
        }
      }
    }
  });

  it(`property: whatever the encoder writes decodes, within the bound (${PROPERTY_RUNS} values)`, () => {
    fc.assert(
      fc.property(jsonValueLike(identifierKey), (value) => {
        const text = gcf.encode(value);
        const r = decoded(text);
        assert.ok('value' in r, `${JSON.stringify(value)}: ${(r as { error: string }).error}`);
        assert.ok(size(r.value) <= Math.max(250_000, 8 * Buffer.byteLength(text)));
      }),
      { numRuns: PROPERTY_RUNS },
    );
  });
});
