import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { after, describe, it } from 'node:test';
import { decodeGeneric } from '@blackwell-systems/gcf';
import fc from 'fast-check';
import { DevboyError } from '../src/errors.js';
import { openFileSink, WritableSink } from '../src/io/text-sink.js';
import type { JsonObject } from '../src/json/types.js';
import { rowsFromGcfStream } from '../src/stream/decode-rows.js';
import { streamRowsToGcf } from '../src/stream/stream-convert.js';
import type { RowSyntax } from '../src/stream/rows.js';
import { anyCodePoint, scaledRuns } from './helpers/arbitraries.js';

const dir = mkdtempSync(join(tmpdir(), 'devboy-stream-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Stream `text` (cut into the given byte pieces) through the encoder; collect what it writes. */
async function streamText(text: string, syntax: RowSyntax | undefined, cuts: number[] = []): Promise<string> {
  const bytes = Buffer.from(text, 'utf8');
  const pieces: Buffer[] = [];
  let at = 0;
  for (const c of [...cuts].sort((a, b) => a - b)) {
    if (c > at && c < bytes.length) {
      pieces.push(bytes.subarray(at, c));
      at = c;
    }
  }
  pieces.push(bytes.subarray(at));
  let out = '';
  const collector = new Writable({
    write(chunk, _enc, done) {
      out += chunk.toString();
      done();
    },
  });
  await streamRowsToGcf({ name: 'rows.in', stream: Readable.from(pieces) }, syntax, new WritableSink(collector));
  return out;
}

/** What the reference decoder gives back, as plain rows: its sections concatenated. */
function referenceRows(gcfText: string): unknown[] {
  const toPlain = (v: unknown): unknown => {
    if (v instanceof Map) {
      const o: Record<string, unknown> = {};
      for (const [k, x] of v) Object.defineProperty(o, k, { value: toPlain(x), enumerable: true, writable: true, configurable: true });
      return o;
    }
    return Array.isArray(v) ? v.map(toPlain) : v;
  };
  return [...(decodeGeneric(gcfText) as Map<string, unknown[]>).values()].flatMap((section) => section.map(toPlain));
}

const scalar = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.string(),
  fc.string({ unit: anyCodePoint }),
  fc.constantFrom('', '-', '~', '^', '|', ',', '"', '## x', '##! summary counts=1', ' pad ', '1', 'true', '\n'),
);
const key = fc.oneof(
  fc.stringMatching(/^[a-z_][a-z0-9_]{0,6}$/),
  fc.string({ minLength: 1 }).filter((k) => !k.includes('>')),
  fc.constantFrom('a b', '|', ',', '"', '#x', '@id', '-', '[', '__proto__'),
);
// Rows drawn from a few key lists, so runs of same-keyed rows alternate with key changes.
const rowsArb = fc.array(fc.uniqueArray(key, { minLength: 1, maxLength: 4 }), { minLength: 1, maxLength: 3 }).chain((shapes) =>
  fc.array(
    fc.nat().chain((n) => {
      const keys = shapes[n % shapes.length]!;
      return fc.tuple(...keys.map(() => scalar)).map((vals) => {
        const row: JsonObject = {};
        keys.forEach((k, i) => Object.defineProperty(row, k, { value: vals[i], enumerable: true, writable: true, configurable: true }));
        return row;
      });
    }),
    { maxLength: 25 },
  ),
);

describe('GCF row streaming', () => {
  it('the reference decoder gives back every row: values and key order, whatever the keys do mid-stream', async () => {
    await fc.assert(
      fc.asyncProperty(rowsArb, fc.boolean(), fc.array(fc.nat(4000), { maxLength: 6 }), async (rows, asArray, cuts) => {
        const text = asArray ? JSON.stringify(rows, null, 1) : rows.map((r) => JSON.stringify(r)).join('\n') + '\n';
        const out = await streamText(text, asArray ? 'json-array' : 'ndjson', cuts);
        assert.equal(JSON.stringify(referenceRows(out)), JSON.stringify(rows));
        assert.equal(JSON.stringify(rowsFromGcfStream(out)), JSON.stringify(rows));
      }),
      { numRuns: scaledRuns(1000) },
    );
  });

  it('writes [?] sections, a new one when the keys change, and the summary trailer with their counts', async () => {
    const out = await streamText(
      '{"id":1,"t":"a"}\n{"id":2,"t":"b"}\n{"t":"c","id":3}\n{"id":4,"t":"d","x":true}\n{"id":5,"t":"e","x":false}\n',
      undefined,
    );
    assert.equal(
      out,
      [
        'GCF profile=generic',
        '## rows [?]{id,t}',
        '1|a',
        '2|b',
        '## rows_2 [?]{t,id}',
        'c|3',
        '## rows_3 [?]{id,t,x}',
        '4|d|true',
        '5|e|false',
        '##! summary counts=2,1,2',
        '',
      ].join('\n'),
    );
  });

  it('cuts anywhere, even inside a multi-byte character, change nothing', async () => {
    const text = '{"name":"Zoë 日本 🚀","n":1}\n{"name":"ça","n":2}\n';
    const whole = await streamText(text, 'ndjson');
    for (let cut = 1; cut < Buffer.byteLength(text); cut++) assert.equal(await streamText(text, 'ndjson', [cut]), whole);
    const asArray = JSON.stringify([
      { name: 'Zoë 日本 🚀', n: 1 },
      { name: 'ça', n: 2 },
    ]);
    for (let cut = 1; cut < Buffer.byteLength(asArray); cut++) assert.equal(await streamText(asArray, 'json-array', [cut]), whole);
  });

  it('an empty input is an empty root array: it decodes to [] (header alone would decode to {}), and to no rows', async () => {
    const out = await streamText('', 'ndjson');
    assert.equal(out, 'GCF profile=generic\n## [0]\n');
    assert.deepEqual(decodeGeneric(out), []);
    assert.deepEqual(rowsFromGcfStream(out), []);
    assert.deepEqual(rowsFromGcfStream(await streamText('[]', undefined)), []);
  });
});

describe('GCF row streaming: bad input', () => {
  const failsWith = async (text: string, syntax: RowSyntax | undefined, expected: string) => {
    await assert.rejects(streamText(text, syntax), (err: DevboyError) => {
      assert.equal(err.oneLine(), expected);
      return true;
    });
  };

  it('names file, line and column', async () => {
    await failsWith('{"a":1}\n{"a":2\n', 'ndjson', "rows.in:2:7: invalid JSON: unexpected end of input (expected ',' or '}')");
    await failsWith(
      '[{"a":1},\n  {"a":2,,}]',
      'json-array',
      "rows.in:2:10: invalid JSON: unexpected ',' (expected a property name in double quotes)",
    );
    await failsWith('[{"a":1} {"a":2}]', 'json-array', "rows.in:1:10: invalid JSON: unexpected '{' (expected ',' or ']')");
    await failsWith('[{"a":1}', 'json-array', 'rows.in:1:9: invalid JSON: unexpected end of input (the array is not closed)');
    await failsWith('{"a":1}', 'json-array', "rows.in:1:1: invalid JSON: expected a JSON array of rows ('['), found '{'");
  });

  it('refuses what GCF streaming cannot write, with the row it is in', async () => {
    await failsWith('{"a":1}\n  [1,2]\n', 'ndjson', 'rows.in:2:3: a row must be a JSON object, this is an array');
    await failsWith(
      '{"a":1}\n{"a":{"b":2}}\n',
      'ndjson',
      'rows.in:2:1: field "a" is an object; GCF streaming writes flat rows of scalars only (convert without --stream to encode nested values)',
    );
    await failsWith(
      '{}\n',
      'ndjson',
      'rows.in:1:1: an empty object cannot be a GCF streaming row (it would be a blank line, which decoders skip)',
    );
    await failsWith(
      '{"a>b":1}\n',
      'ndjson',
      `rows.in:1:1: key "a>b" contains '>', which GCF reads as a nested path; GCF streaming cannot write it`,
    );
  });

  it('to a file: written only when complete; a failure leaves no file and no temporary file', async () => {
    const target = join(dir, 'out.gcf');
    const good = await openFileSink(target);
    await streamRowsToGcf({ name: 'ok', stream: Readable.from(['{"a":1}\n']) }, 'ndjson', good);
    assert.equal(readFileSync(target, 'utf8'), 'GCF profile=generic\n## rows [?]{a}\n1\n##! summary counts=1\n');
    writeFileSync(target, 'previous\n');
    const bad = await openFileSink(target);
    await assert.rejects(streamRowsToGcf({ name: 'bad', stream: Readable.from(['{"a":1}\n', '{"a":\n']) }, 'ndjson', bad));
    assert.equal(readFileSync(target, 'utf8'), 'previous\n');
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.startsWith('.devboy-tmp')),
      [],
    );
    assert.ok(existsSync(target));
  });
});
