import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { decodeGeneric, encodeGeneric } from '@blackwell-systems/gcf';
import { convert, type ConvertResult } from '../src/convert/convert.js';
import { DataError, DevboyError } from '../src/errors.js';
import type { InputFormatName } from '../src/formats/detect.js';
import { loadFormat } from '../src/formats/registry.js';
import type { FormatName } from '../src/formats/types.js';
import { verifyRoundTrip } from '../src/formats/verify.js';
import { readInput } from '../src/io/read-input.js';
import { firstDifference, jsonEqual } from '../src/json/equal.js';
import { parseJson } from '../src/json/parse.js';
import type { JsonValue } from '../src/json/types.js';
import { rowsFromGcfStream } from '../src/stream/decode-rows.js';
import { runCli, runCliWithStdin } from './helpers/cli.js';

const dir = mkdtempSync(join(tmpdir(), 'devboy-verify-bytes-'));
after(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(dir, name);
  writeFileSync(path, content);
  return path;
}

/** The library path a user's bytes take: read the file, convert, verify. */
async function convertBytes(path: string, to: FormatName, from?: InputFormatName): Promise<ConvertResult> {
  const input = await readInput(path);
  return convert({ input, to, verify: true, ...(from ? { from } : {}) });
}

async function rejection(promise: Promise<unknown>): Promise<DevboyError> {
  try {
    await promise;
  } catch (err) {
    assert.ok(err instanceof DevboyError, `expected a DevboyError, got ${String(err)}`);
    return err;
  }
  return assert.fail('expected a refusal, got a result');
}

/**
 * The CLI refused with exit 1 and exactly one stderr line matching `line`; nothing went to stdout.
 * All in-process: the claim is about the bytes read, whatever pipe brought them (cli-messages and
 * cli-convert-stream read a real one).
 */
async function cliRefuses(args: string[], line: RegExp, input?: string | Buffer): Promise<void> {
  const r = await (input === undefined ? runCli(['convert', ...args]) : runCliWithStdin(['convert', ...args], input));
  assert.equal(r.code, 1, `exit code; stderr: ${r.stderr}`);
  assert.equal(r.stdout, '');
  const lines = r.stderr.split('\n').filter((l) => l !== '');
  assert.equal(lines.length, 1, r.stderr);
  assert.match(lines[0]!, line);
  assert.doesNotMatch(r.stderr, /verified/);
}

function nested(depth: number, leaf: JsonValue = 1): JsonValue {
  let v = leaf;
  for (let i = 0; i < depth; i++) v = i % 2 ? [v] : { k: v };
  return v;
}

describe('invalid UTF-8 is refused where it is, never turned into U+FFFD', () => {
  // {"a":"x\xffy"}: the bad byte is at offset 7 (counted from 0, as in a hex dump), line 1, column 8.
  const bytes = Buffer.concat([Buffer.from('{"a":"x'), Buffer.from([0xff]), Buffer.from('y"}\n')]);
  const path = file('bad-utf8.json', bytes);

  it('library: readInput names the byte, line and column', async () => {
    const err = await rejection(readInput(path));
    assert.ok(err instanceof DataError);
    assert.deepEqual(err.location, { file: path, line: 1, col: 8 });
    assert.match(err.message, /^invalid UTF-8 at byte 7 \(0xFF\)/);
  });

  it('library: a second line is counted in the position', async () => {
    const two = file('bad-utf8-2.json', Buffer.concat([Buffer.from('[\n  "é', 'utf8'), Buffer.from([0xc3, 0x28]), Buffer.from('"]')]));
    const err = await rejection(readInput(two));
    assert.deepEqual(err.location, { file: two, line: 2, col: 5 });
    assert.match(err.message, /^invalid UTF-8 at byte 7 \(0xC3 0x28\)/);
  });

  it('CLI: exit 1, one line, for a file and for standard input', async () => {
    await cliRefuses([path, '--to', 'gcf', '--verify'], /^devboy convert: .*bad-utf8\.json:1:8: invalid UTF-8 at byte 7 \(0xFF\)/);
    await cliRefuses(['-', '--to', 'json', '--verify'], /^devboy convert: <stdin>:1:8: invalid UTF-8 at byte 7 \(0xFF\)/, bytes);
  });
});

describe('a lone surrogate is kept where the format can escape it, refused where it would be written raw', () => {
  const path = file('lone.json', '{"a": "x\\ud800"}\n');

  for (const to of ['json', 'json-compact', 'stc'] as const) {
    it(`library: ${to} keeps it exactly (as an escape) and verifies`, async () => {
      const r = await convertBytes(path, to);
      assert.equal(r.verification?.lossless, true);
      assert.match(r.output, /\\ud800/);
      const written = Buffer.from(r.output, 'utf8').toString('utf8');
      assert.equal(((await loadFormat(to)).decode(written) as { a: string }).a, 'x\ud800');
    });
  }

  for (const to of ['gcf', 'toon'] as const) {
    it(`library: ${to} refuses, naming the escape's line and column`, async () => {
      const err = await rejection(convertBytes(path, to));
      assert.deepEqual(err.location, { file: path, line: 1, col: 9 });
      assert.match(err.message, /lone surrogate \\ud800 at \$\.a/);
    });
  }

  it('CLI: --to gcf --verify exits 1 with one escaped line (no raw surrogate on stderr)', async () => {
    await cliRefuses([path, '--to', 'gcf', '--verify'], /^devboy convert: .*lone\.json:1:9: lone surrogate \\ud800 at \$\.a /);
  });

  it('verify checks the bytes written: a codec that writes the surrogate raw is not lossless', async () => {
    const gcf = await loadFormat('gcf');
    const raw = { ...gcf, encode: (v: JsonValue) => encodeGeneric(v) };
    const check = verifyRoundTrip(raw, { a: 'x\ud800' });
    assert.equal(check.lossless, false);
    assert.match(check.reason ?? '', /\$\.a/);
  });
});

describe('numbers a double cannot hold are refused with their position', () => {
  const cases: [string, string, number, RegExp][] = [
    ['overflow', '[1, 1e400]', 5, /^number 1e400 is out of range of a double: it would become Infinity$/],
    ['negative overflow', '[-1e400]', 2, /^number -1e400 is out of range of a double: it would become -Infinity$/],
    ['underflow', '{"x": 1e-400}', 7, /^number 1e-400 is too close to zero for a double: it would become 0$/],
    [
      'big integer',
      '[12345678901234567890]',
      2,
      /^number 12345678901234567890 cannot be held exactly by a double: it would become 12345678901234567000$/,
    ],
    ['2^53 + 1', '[9007199254740993]', 2, /^number 9007199254740993 cannot be held exactly by a double: it would become 9007199254740992$/],
    [
      'too many digits',
      '[0.10000000000000001]',
      2,
      /^number 0\.10000000000000001 cannot be held exactly by a double: it would become 0\.1$/,
    ],
  ];
  for (const [name, text, col, message] of cases) {
    it(`library: ${name}`, async () => {
      const path = file(`num-${name.replace(/\W+/g, '-')}.json`, text);
      for (const to of ['json', 'toon', 'gcf'] as const) {
        const err = await rejection(convertBytes(path, to));
        assert.deepEqual(err.location, { file: path, line: 1, col });
        assert.match(err.message, message);
      }
    });
  }

  it('numbers a double holds exactly pass, in any spelling', async () => {
    const path = file('num-ok.json', '[9007199254740992, 1.5e3, 1E2, -0, 0.1, 5e-324, 1.7976931348623157e308, 100000000000000000000]');
    const r = await convertBytes(path, 'json-compact');
    assert.equal(r.output, '[9007199254740992,1500,100,0,0.1,5e-324,1.7976931348623157e+308,100000000000000000000]');
  });

  it('CLI: 1e400 --verify exits 1 naming file:line:col', async () => {
    const path = file('inf.json', '{\n  "big": 1e400\n}\n');
    await cliRefuses(
      [path, '--to', 'json', '--verify'],
      /inf\.json:2:10: number 1e400 is out of range of a double: it would become Infinity$/,
    );
  });

  it('CLI: a 20-digit id exits 1 instead of losing digits', async () => {
    const path = file('id.json', '{"id": 12345678901234567890}');
    await cliRefuses([path, '--to', 'toon', '--verify'], /id\.json:1:8: number 12345678901234567890 cannot be held exactly by a double/);
  });

  it('CLI: 1e-400 exits 1 instead of becoming 0', async () => {
    await cliRefuses(['-', '--to', 'gcf', '--verify'], /<stdin>:1:2: number 1e-400 is too close to zero/, '[1e-400]');
  });
});

describe('duplicate keys are refused, never collapsed to one', () => {
  const path = file('dup.json', '{\n  "a": 1,\n  "b": 2,\n  "a": 3\n}\n');

  it('library: names the second key and where the first one was', async () => {
    for (const to of ['json', 'toon', 'stc', 'gcf'] as const) {
      const err = await rejection(convertBytes(path, to));
      assert.deepEqual(err.location, { file: path, line: 4, col: 3 });
      assert.match(err.message, /^duplicate key "a" \(first at 2:3\)/);
    }
  });

  it('library: keys equal after unescaping are duplicates too', () => {
    assert.throws(() => parseJson('{"a":1,"\\u0061":2}', 'x.json'), /duplicate key "a" \(first at 1:2\)/);
  });

  it('CLI: exit 1, one line', async () => {
    await cliRefuses([path, '--to', 'json', '--verify'], /dup\.json:4:3: duplicate key "a" \(first at 2:3\)/);
  });

  it('library: an integer-like key after other keys would be moved first by any JavaScript object: refused', async () => {
    const moved = file('int-key.json', '{"b": 1, "7": 2}');
    const err = await rejection(convertBytes(moved, 'json'));
    assert.deepEqual(err.location, { file: moved, line: 1, col: 10 });
    assert.match(err.message, /^key "7" would move before "b"/);
    // In ascending order and first, integer-like keys keep their order.
    assert.equal((await convertBytes(file('int-key-ok.json', '{"1": 1, "7": 2, "b": 3}'), 'json-compact')).output, '{"1":1,"7":2,"b":3}');
  });
});

describe('the other inputs are read as strictly as JSON', () => {
  const cases: [string, string, string, InputFormatName, number, number, RegExp][] = [
    ['NDJSON duplicate key', 'rows.ndjson', '{"a":1}\n{"a":1,"a":2}\n', 'ndjson', 2, 8, /^duplicate key "a" \(first at 2:2\)/],
    ['NDJSON big number', 'big.ndjson', '{"a":1}\n{"a":12345678901234567890}\n', 'ndjson', 2, 6, /cannot be held exactly/],
    [
      'TOON big number',
      'big.toon',
      'id: 1\nbig: 12345678901234567890\n',
      'toon',
      2,
      6,
      /^number 12345678901234567890 cannot be held exactly/,
    ],
    ['TOON 1e400', 'inf.toon', 'x: 1e400\n', 'toon', 1, 4, /^number 1e400 is out of range of a double/],
    ['TOON array 1e-400', 'tiny.toon', 'xs[3]: 1,1e-400,3\n', 'toon', 1, 10, /^number 1e-400 is too close to zero/],
    ['GCF 1e400', 'inf.gcf', 'GCF profile=generic\na=1\nb=1e400\n', 'gcf', 3, 3, /^number 1e400 is out of range of a double/],
    [
      'GCF big number in a row',
      'rows.gcf',
      'GCF profile=generic\n## [2]{id,n}\n1|2\n2|12345678901234567890\n',
      'gcf',
      4,
      3,
      /cannot be held exactly/,
    ],
    ['STC 1e-400', 'tiny.stc', '{a:1,b:1e-400}', 'stc', 1, 8, /^number 1e-400 is too close to zero/],
    ['STC big number', 'big.stc', '[2]:1,12345678901234567890', 'stc', 1, 7, /cannot be held exactly/],
  ];
  for (const [name, fileName, text, from, line, col, message] of cases) {
    it(`library: ${name}`, async () => {
      const path = file(fileName, text);
      const err = await rejection(convertBytes(path, 'json', from));
      assert.deepEqual(err.location, { file: path, line, col });
      assert.match(err.message, message);
    });
  }

  it('library: a number-looking word inside a string is not mistaken for a number', async () => {
    const path = file('words.toon', 'note: build 12345678901234567890 ok\nq: "1e400"\n');
    const r = await convertBytes(path, 'json-compact');
    assert.equal(r.output, '{"note":"build 12345678901234567890 ok","q":"1e400"}');
  });

  it('CLI: TOON input with a 20-digit number exits 1', async () => {
    const path = file('id.toon', 'id: 12345678901234567890\n');
    await cliRefuses([path, '--to', 'json', '--verify'], /id\.toon:1:5: number 12345678901234567890 cannot be held exactly/);
  });
});

describe('deep nesting: a limit error with the depth and the place, never a stack overflow', () => {
  it('library: JSON 5,000 levels deep is refused at the level that crosses the limit', async () => {
    const path = file('deep.json', '['.repeat(5000) + ']'.repeat(5000));
    const err = await rejection(convertBytes(path, 'json'));
    assert.deepEqual(err.location, { file: path, line: 1, col: 501 });
    assert.match(err.message, /^nesting deeper than 500 levels/);
  });

  it('library: 500 levels convert and verify in every format', async () => {
    const path = file('deep-ok.json', JSON.stringify(nested(500)));
    for (const to of ['json', 'toon', 'stc', 'gcf'] as const) {
      const r = await convertBytes(path, to);
      assert.equal(r.verification?.lossless, true, to);
    }
  });

  for (const to of ['toon', 'gcf'] as const) {
    it(`library: ${to} refuses to encode 2,000 levels instead of writing text its decoder rejects`, async () => {
      const format = await loadFormat(to);
      assert.throws(
        () => format.encode(nested(2000)),
        (e: unknown) => e instanceof DataError && /nesting deeper than 500 levels at \$/.test(e.message),
      );
    });

    it(`library: ${to} input indented 5,000 levels is refused with its line, not a stack overflow`, async () => {
      const format = await loadFormat(to);
      const text =
        to === 'toon'
          ? Array.from({ length: 5000 }, (_, i) => `${'  '.repeat(i)}k:`).join('\n') + ' 1\n'
          : 'GCF profile=generic\n' + Array.from({ length: 5000 }, (_, i) => `${'  '.repeat(i)}## k`).join('\n') + '\n';
      assert.throws(
        () => format.decode(text),
        (e: unknown) => e instanceof DataError && /nesting deeper than 500 levels/.test(e.message) && e.location.line !== undefined,
      );
    });
  }

  it('library: STC input deeper than 500 levels (STC itself allows 1000) is refused before encoding', async () => {
    const path = file('deep.stc', '['.repeat(800) + ']'.repeat(800));
    const err = await rejection(convertBytes(path, 'gcf', 'stc'));
    assert.match(err.message, /nesting deeper than 500 levels/);
  });

  it('library: equality and the round-trip check walk 100,000 levels without recursion', () => {
    const a = nested(100_000);
    const b = nested(100_000);
    assert.equal(jsonEqual(a, b), true);
    assert.equal(firstDifference(a, b), null);
    assert.equal(firstDifference(a, nested(100_000, 2))?.kind, 'value');
  });

  it('library: verifyRoundTrip of a value too deep to encode says so instead of throwing', async () => {
    const check = verifyRoundTrip(await loadFormat('json'), nested(100_000));
    assert.equal(check.lossless, false);
    assert.match(check.reason ?? '', /nesting deeper than 500 levels/);
  });

  it('CLI: 10,000 levels exit 1 with the limit, no stack trace', async () => {
    const path = file('deeper.json', '{"a":'.repeat(10_000) + '1' + '}'.repeat(10_000));
    await cliRefuses([path, '--to', 'toon', '--verify'], /deeper\.json:1:2501: nesting deeper than 500 levels/);
  });

  it('CLI: the comparison never says "Maximum call stack size exceeded"', async () => {
    const path = file('deep-toon.toon', Array.from({ length: 3000 }, (_, i) => `${'  '.repeat(i)}k:`).join('\n') + ' 1\n');
    const r = await runCli(['convert', path, '--to', 'gcf', '--verify']);
    assert.equal(r.code, 1);
    assert.doesNotMatch(r.stderr, /call stack/);
    assert.match(r.stderr, /deep-toon\.toon:\d+:\d+: nesting deeper than 500 levels/);
  });
});

describe('streaming an empty input writes GCF that decodes to []', () => {
  for (const [name, input] of [
    ['empty standard input', ''],
    ['an empty JSON array', '[]'],
  ] as const) {
    it(`CLI: ${name}`, async () => {
      // In-process, into a file: a streamed conversion writes to the process's own standard output,
      // which only a process of its own would catch, and the claim is the bytes, not where they go
      // (io-output-targets' '-o - is standard output' streams to a real one).
      const out = join(dir, `empty-${name.length}.gcf`);
      const r = await runCliWithStdin(['convert', '-', '--to', 'gcf', '--stream', '-o', out], input);
      assert.equal(r.code, 0, r.stderr);
      const gcf = readFileSync(out, 'utf8');
      assert.deepEqual(decodeGeneric(gcf), []);
      assert.deepEqual(rowsFromGcfStream(gcf), []);
      const back = await runCli(['convert', out, '--from', 'gcf', '--to', 'json-compact']);
      assert.equal(back.stdout, '[]\n');
    });
  }
});

describe('error lines show control characters escaped', () => {
  it('library: oneLine escapes NUL, ESC, DEL, C1 and line separators', () => {
    const err = new DataError('bad \u0000 and \u001b[31mred\u007f \u0085 \u2028 \u202e end', { file: 'a\u0007.json', line: 1, col: 2 });
    const line = err.oneLine();
    assert.equal(line, 'a\\u0007.json:1:2: bad \\u0000 and \\u001b[31mred\\u007f \\u0085 \\u2028 \\u202e end');
  });

  // From files, in-process (the tests above read standard input): the escaping is the same for both.
  it('CLI: a NUL in the input is shown as \\u0000', async () => {
    const path = file('nul.json', '{"a": \u0000}');
    const r = await runCli(['convert', path, '--from', 'json', '--to', 'json']);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `devboy convert: ${path}:1:7: invalid JSON: unexpected '\\u0000' (expected a value)\n`);
  });

  it('CLI: a control character inside a string is shown escaped', async () => {
    const r = await runCli(['convert', file('esc.json', '["a\u001bb"]'), '--from', 'json', '--to', 'json']);
    assert.equal(r.code, 1);
    // eslint-disable-next-line no-control-regex
    assert.doesNotMatch(r.stderr, /[\u0000-\u0009\u000b-\u001f\u007f]/);
    assert.match(r.stderr, /esc\.json:1:4: invalid JSON: control character \\u001b in string/);
  });
});
