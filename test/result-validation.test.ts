import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import fc from 'fast-check';
import { parseBenchmarkResult } from '../src/benchmark/read-result.js';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { DataError } from '../src/errors.js';
import { FORMAT_NAMES } from '../src/formats/types.js';
import { FULL_SUITE } from './helpers/sampling.js';
import { runCli } from './helpers/cli.js';
import { FIXTURES, REPO_ROOT } from './helpers/paths.js';

// compare and merge read saved results that may come from anywhere (an artifact, a hand edit, a
// newer devboy). A token count of -5 made a base "improve" by 40 rows; `"formats": 5` failed with
// `number 5 is not iterable`. Every field is checked against docs/benchmark-schema.md first, and the
// first one that is not as it says is named, with the file, in one line.

const dir = mkdtempSync(join(tmpdir(), 'devboy-results-'));
after(() => rmSync(dir, { recursive: true, force: true }));
const FIXTURE = join(FIXTURES, 'report', 'small-result.json');
const valid = JSON.parse(readFileSync(FIXTURE, 'utf8')) as BenchmarkResult;
type Doc = BenchmarkResult;
const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
/** A part of a result to put any value in. */
const loose = (x: unknown) => x as Record<string, unknown>;

function variant(change: (d: Doc) => void, from: Doc = valid): string {
  const doc = structuredClone(from);
  change(doc);
  return JSON.stringify(doc);
}

function refusal(text: string, file = 'r.json'): string {
  try {
    parseBenchmarkResult(text, file);
  } catch (err) {
    assert.ok(err instanceof DataError, String(err));
    return `${file}: ${err.message}`;
  }
  assert.fail('accepted');
}

const cases: [string, (d: Doc) => void, RegExp][] = [
  ['a negative token count', (d) => (d.rows[3]!.tokens = -5), /rows\[3\]\.tokens must be a whole number, 0 or more, not -5$/],
  ['a fractional token count', (d) => (d.rows[3]!.tokens = 12.5), /rows\[3\]\.tokens must be a whole number, 0 or more, not 12\.5$/],
  ['a token count as text', (d) => (loose(d.rows[0])['tokens'] = '12'), /rows\[0\]\.tokens must be a whole number, 0 or more, not "12"$/],
  [
    'a token count that was NaN (JSON writes null)',
    (d) => (d.rows[0]!.tokens = Number.NaN),
    /rows\[0\]\.tokens must be a whole number, 0 or more, not null$/,
  ],
  [
    'a token count beyond exact integers',
    (d) => (d.rows[0]!.tokens = 1e20),
    /rows\[0\]\.tokens must be a whole number, 0 or more, not 100000000000000000000$/,
  ],
  ['a missing token count', (d) => delete (d.rows[2] as Partial<BenchmarkResult['rows'][number]>).tokens, /rows\[2\]\.tokens is missing$/],
  ['negative pages', (d) => (d.rows[1]!.pages = -1), /rows\[1\]\.pages must be a whole number, 0 or more, not -1$/],
  ['a negative time', (d) => (d.rows[1]!.encode_ms = -0.5), /rows\[1\]\.encode_ms must be a number, 0 or more, not -0\.5$/],
  [
    'a spread of one time',
    (d) => (loose(d.rows[1])['decode_spread_ms'] = [1]),
    /rows\[1\]\.decode_spread_ms must be a pair \[fastest, slowest\], not \[1\]$/,
  ],
  ['lossless as text', (d) => (loose(d.rows[0])['lossless'] = 'yes'), /rows\[0\]\.lossless must be true or false, not "yes"$/],
  [
    'an unknown format',
    (d) => (loose(d.rows[0])['format'] = 'html'),
    new RegExp(`rows\\[0\\]\\.format must be a format \\(${escapeRegExp(FORMAT_NAMES.join(', '))}\\), not "html"$`),
  ],
  [
    'an unknown tokenizer',
    (d) => (loose(d.rows[0])['tokenizer'] = 'gpt2'),
    /rows\[0\]\.tokenizer must be a tokenizer \(heuristic, o200k_base, .*\), not "gpt2"$/,
  ],
  ['a saving above 1', (d) => (d.rows[0]!.savings.encoder = 2), /rows\[0\]\.savings\.encoder must be a fraction, at most 1, not 2$/],
  [
    'a negative baseline count',
    (d) => (d.rows[0]!.savings.baseline_tokens = -3),
    /rows\[0\]\.savings\.baseline_tokens must be a whole number, 0 or more, not -3$/,
  ],
  ['metadata that is not an object', (d) => (loose(d.rows[0])['metadata'] = 5), /rows\[0\]\.metadata must be an object, not 5$/],
  [
    'formats that are a number (was: number 5 is not iterable)',
    (d) => (loose(d.settings)['formats'] = 5),
    /settings\.formats must be a list, not 5$/,
  ],
  [
    'an unknown level in the settings',
    (d) => (loose(d.settings)['levels'] = ['raw', 'ultra']),
    /settings\.levels\[1\] must be a level \(raw, full, standard, minimal\), not "ultra"$/,
  ],
  ['a budget of 0', (d) => (d.settings.budget = 0), /settings\.budget must be a whole number, 1 or more, not 0$/],
  ['tokenizers that are an object', (d) => (loose(d)['tokenizers'] = {}), /tokenizers must be a list, not \{\}$/],
  ['rows that are an object', (d) => (loose(d)['rows'] = {}), /rows must be a list, not \{\}$/],
  ['a dataset with -1 items', (d) => (d.datasets[0]!.items = -1), /datasets\[0\]\.items must be a whole number, 0 or more, not -1$/],
  [
    'an unknown source kind',
    (d) => (loose(d.source)['kind'] = 'cloud'),
    /source\.kind must be corpus or live \(corpus, live\), not "cloud"$/,
  ],
  [
    'a skipped recording at line 0',
    (d) => (d.skipped = [{ file: 'x.json', line: 0, reason: 'r' }]),
    /skipped\[0\]\.line must be a whole number, 1 or more, not 0$/,
  ],
  [
    'a merged part with -1 rows',
    (d) => (d.merged_from = [{ file: 'a.json', source: { kind: 'corpus' }, datasets: 1, rows: -1 }]),
    /merged_from\[0\]\.rows must be a whole number, 0 or more, not -1$/,
  ],
  [
    'a row twice',
    (d) => d.rows.push(structuredClone(d.rows[4]!)),
    /rows\[\d+\] has the identity of rows\[4\] \(github \| .*\): compare could match only one of them$/,
  ],
];

describe('saved results are checked against their schema: the file and the field, in one line', () => {
  for (const [name, change, message] of cases) {
    it(name, () => {
      const m = refusal(variant(change));
      assert.match(m, /^r\.json: not a valid benchmark result: /);
      assert.match(m, message);
      assert.ok(!m.includes('\n'));
    });
  }

  it('every committed result passes', () => {
    for (const file of [
      join(REPO_ROOT, 'results', 'baseline.json'),
      FIXTURE,
      join(FIXTURES, 'report', 'small-session-result.json'),
      join(FIXTURES, 'report', 'small-families-result.json'),
    ])
      assert.doesNotThrow(() => parseBenchmarkResult(readFileSync(file, 'utf8'), file), file);
  });

  it(`property: a count, time or name of any row made invalid is named by its row and field`, () => {
    const COUNTS = ['tokens', 'bytes', 'pages'] as const;
    const bad = fc.oneof(
      fc.integer({ min: -1e9, max: -1 }),
      fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Number.isInteger(x)),
      fc.constantFrom<unknown>(null, '7', true, [], {}, 2 ** 53),
    );
    // One dataset's rows (every level, format and tokenizer): a fifth of the result to copy and read per run.
    const one: Doc = { ...valid, rows: valid.rows.filter((r) => r.label === valid.rows[0]!.label) };
    assert.equal(one.rows.length, 40);
    assert.doesNotThrow(() => parseBenchmarkResult(JSON.stringify(one), 'one.json'));
    fc.assert(
      fc.property(fc.nat(one.rows.length - 1), fc.constantFrom(...COUNTS), bad, (i, field, value) => {
        const m = refusal(variant((d) => (loose(d.rows[i])[field] = value), one));
        assert.match(m, new RegExp(`: rows\\[${i}\\]\\.${field} must be a whole number, 0 or more, not `));
      }),
      // 100 runs meet each field with each kind of bad value several times over; test:corpus runs 2,000.
      { numRuns: FULL_SUITE ? 2000 : 100 },
    );
  });
});

describe('compare and merge refuse a malformed result: exit 1, one line naming the file and the field', () => {
  const good = join(dir, 'good.json');
  writeFileSync(good, JSON.stringify(valid));

  it('the issue: a base at -X against a head at +X no longer "passes, 40 improved"', async () => {
    const negative = join(dir, 'negative.json');
    writeFileSync(
      negative,
      variant((d) => d.rows.forEach((r) => (r.tokens = -r.tokens))),
    );
    const r = await runCli(['compare', negative, good]);
    assert.equal(r.code, 1, r.stdout);
    assert.equal(r.stdout, '');
    assert.match(
      r.stderr,
      /^devboy compare: .*negative\.json: not a valid benchmark result: rows\[0\]\.tokens must be a whole number, 0 or more, not -\d+\n$/,
    );
  });

  for (const [name, change, message] of cases.filter((_, i) => i % 4 === 0)) {
    it(name, async () => {
      const file = join(dir, `${name.replace(/\W+/g, '-')}.json`);
      writeFileSync(file, variant(change));
      for (const args of [
        ['compare', good, file],
        ['merge', file, '-o', join(dir, 'never.json')],
      ]) {
        const r = await runCli(args);
        assert.equal(r.code, 1, `${args[0]}: ${r.stderr}`);
        assert.equal(r.stdout, '');
        assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
        assert.ok(r.stderr.includes(`${file}: not a valid benchmark result: `), r.stderr);
        assert.match(r.stderr.trim(), message);
      }
    });
  }
});
