import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { parseBenchmarkResult as parseBaseline } from '../src/benchmark/read-result.js';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { formatConvertStats } from '../src/convert/stats-text.js';
import { describeDifference, firstDifference } from '../src/json/equal.js';
import { isWellFormed } from '../src/json/surrogates.js';
import { EXPORTERS } from '../src/report/index.js';
import { fewerOrMore, int, plural } from '../src/text/words.js';
import { runCli, runCliWithStdin } from './helpers/cli.js';
import { corpusDir, FIXTURES } from './helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'devboy-messages-'));
after(() => rmSync(dir, { recursive: true, force: true }));

// A 10 KB recorded page: format encodes it before it writes, and the refusal is the same for any size.
const exchange = join(corpusDir(), 'github/artsy__emission/000_GET_repos_artsy_emission_issues_327_comments.json');

/** Run with standard input a terminal, as a person typing the command would. */
async function onTerminal<T>(run: () => Promise<T>): Promise<T> {
  const saved = Object.getOwnPropertyDescriptor(process.stdin, 'isTTY');
  Object.defineProperty(process.stdin, 'isTTY', { value: true, configurable: true });
  try {
    return await run();
  } finally {
    if (saved) Object.defineProperty(process.stdin, 'isTTY', saved);
    else delete (process.stdin as { isTTY?: boolean }).isTTY;
  }
}

describe('input: a file, -, or piped standard input', () => {
  it('no file argument and data piped in: reads standard input (convert, session)', async () => {
    // A real pipe once; then in-process, with standard input a stream that is not a terminal, as
    // the pipe is not: what each command makes of what it reads is the claim there.
    const r = await runCli(['convert', '--to', 'toon'], { input: '{"a":1}\n' });
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'a: 1\n');
    const s = await runCliWithStdin(['session', '--json'], '{"tool":"t","output":{"x":1}}\n');
    assert.equal(s.code, 0, s.stderr);
    assert.equal(JSON.parse(s.stdout).calls, 1);
    const empty = await runCliWithStdin(['convert', '--to', 'toon'], '');
    assert.equal(empty.code, 1);
    assert.equal(empty.stderr, 'devboy convert: <stdin>: empty input: nothing to convert\n');
  });

  it('no file argument on a terminal: exit 2, one line saying a file or - is needed', async () => {
    for (const command of [['convert', '--to', 'toon'], ['format'], ['session']]) {
      const r = await onTerminal(() => runCli(command));
      assert.equal(r.code, 2, command[0]);
      assert.equal(r.stderr, `devboy ${command[0]}: no input: give a FILE, or - to read standard input\n`);
    }
  });
});

describe('format detection: which formats were tried, and the likeliest one’s error', () => {
  const cases = [
    {
      name: 'TOON with a short inline array',
      text: 'b[3]: x,y\n',
      where: ':1',
      likeliest: 'TOON',
      error: 'Expected 3 inline-form values, but got 2',
    },
    {
      name: 'STC with a missing value',
      text: '{a:1,b:}',
      where: ':1:8',
      likeliest: 'STC',
      error: "expected a value (object, array, string, number, true, false or null), found '}'",
    },
    { name: 'JSON with a bare word', text: '{"a": nope}', where: ':1:8', likeliest: 'JSON', error: "unexpected 'o' (expected null)" },
    {
      name: 'NDJSON with one bad line',
      text: '{"a":1}\n{"a":2,}\n',
      where: ':2:8',
      likeliest: 'NDJSON',
      error: "unexpected '}' (expected a property name in double quotes)",
    },
  ];
  for (const c of cases) {
    it(c.name, async () => {
      const file = join(dir, `detect-${c.likeliest}.txt`);
      writeFileSync(file, c.text);
      const r = await runCli(['convert', file, '--to', 'json']);
      assert.equal(r.code, 1);
      assert.equal(
        r.stderr,
        `devboy convert: ${file}${c.where}: cannot tell the format (tried GCF, JSON, NDJSON, STC and TOON; pass --from); likeliest ${c.likeliest}: ${c.error}\n`,
      );
    });
  }
});

describe('-o: a file everywhere, a folder is a one-line error', () => {
  const folder = join(dir, 'a-folder');
  mkdirSync(folder, { recursive: true });

  it('format -o FOLDER', async () => {
    const r = await runCli(['format', exchange, '--budget', '600', '-o', folder]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `devboy format: ${folder}: cannot write: it is a folder\n`);
    assert.equal(r.stdout, '');
  });

  it('benchmark -o FOLDER: said before any data is read', async () => {
    const r = await runCli(['benchmark', '--corpus', join(dir, 'no-such-corpus'), '-o', folder]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `devboy benchmark: ${folder}: cannot write: it is a folder\n`);
  });

  it('record writes a folder: --out-dir (or --out); -o, a file everywhere else, is refused with the flag to use', async () => {
    const r = await runCli(['record', '-p', 'github', '--owner', 'acme', '--repo', 'widgets', '-o', folder]);
    assert.equal(r.code, 2);
    assert.equal(r.stderr, 'devboy record: -o names an output file in devboy; record writes a folder: use --out-dir DIR\n');
    // Both spellings reach the same flag: the missing token is the next thing it says.
    for (const flag of ['--out-dir', '--out']) {
      const ok = await runCli(['record', '-p', 'jira', '--project', 'AC', flag, folder], { env: { JIRA_HOST: undefined } });
      assert.equal(ok.code, 2, flag);
      assert.match(ok.stderr, /^devboy record: .*set JIRA_HOST or --host/, flag);
    }
  });
});

describe('lossy rows: where the key orders part', () => {
  it('names the first differing position and key, and shows the orders from there', () => {
    const expected = [
      { key: 1, title: 2, description: 3, state: 4, source: 5, labels: 6, author: 7, assignees: 8, url: 9, created_at: 10 },
    ];
    const actual = [{ key: 1, title: 2, state: 4, source: 5, labels: 6, author: 7, assignees: 8, url: 9, created_at: 10, description: 3 }];
    assert.equal(
      describeDifference(firstDifference(expected, actual)!),
      'key order changed at $[0], key 3: expected description,state,source,labels,author,assignees,url,…; got state,source,labels,author,assignees,url,created_at,…',
    );
  });

  it('a difference late in a long key list is still visible', () => {
    const keys = Array.from({ length: 30 }, (_, i) => `field_${i}`);
    const a = Object.fromEntries(keys.map((k) => [k, 0]));
    const swapped = [...keys];
    [swapped[27], swapped[28]] = [swapped[28]!, swapped[27]!];
    const b = Object.fromEntries(swapped.map((k) => [k, 0]));
    assert.equal(
      describeDifference(firstDifference(a, b)!),
      'key order changed at $, key 28: expected field_27,field_28,field_29; got field_28,field_27,field_29',
    );
  });
});

describe('lossy rows: where two strings part', () => {
  // A diff hunk that a codec changed at character 124: a preview of each string's start would show
  // the same text on both sides.
  const head = `@@ -43,7 +59,9 @@ def request(method, path, options, version)\n${'       context line\n'.repeat(3)}`;
  const expected = [{ diff_hunk: `${head}     }\n \n-    def x\n${'+ more\n'.repeat(5)}` }];
  const actual = [{ diff_hunk: `${head}     }\n\\\n-    def x\n${'+ more\n'.repeat(5)}` }];

  it('shows the region where they differ, from a little before, with its position, escaped', () => {
    assert.equal(head.length, 122);
    assert.equal(
      describeDifference(firstDifference(expected, actual)!),
      'value changed at $[0].diff_hunk, character 130 (expected …"context line\\n     }\\n \\n-    def x\\n+ more\\n+ more\\n+ more\\n+ more"…; got …"context line\\n     }\\n\\\\\\n-    def x\\n+ more\\n+ more\\n+ more\\n+ more"…)',
    );
  });

  it('one string the start of the other: where the shorter ends', () => {
    const long = 'x'.repeat(100);
    assert.equal(
      describeDifference(firstDifference({ s: long }, { s: `${long}tail` })!),
      `value changed at $.s, character 101 (expected …"${'x'.repeat(20)}"; got …"${'x'.repeat(20)}tail")`,
    );
  });

  it('counts characters, not UTF-16 units, and never cuts a surrogate pair or an escape', () => {
    const pre = '😀'.repeat(80);
    const d = describeDifference(firstDifference([`${pre}a\u0001`], [`${pre}b\u0001`])!);
    assert.equal(d, `value changed at $[0], character 81 (expected …"${'😀'.repeat(20)}a\\u0001"; got …"${'😀'.repeat(20)}b\\u0001")`);
    assert.ok(isWellFormed(d));
  });

  it('short strings are shown whole, as before', () => {
    assert.equal(
      describeDifference(firstDifference({ a: 'x\n \n' }, { a: 'x\n\\\n' })!),
      'value changed at $.a (expected "x\\n \\n"; got "x\\n\\\\\\n")',
    );
  });
});

describe('words and numbers', () => {
  it('plural, int and fewerOrMore', () => {
    assert.equal(plural(1, 'dataset'), '1 dataset');
    assert.equal(plural(0, 'dataset'), '0 datasets');
    assert.equal(plural(3720, 'row'), '3,720 rows');
    assert.equal(plural(2, 'boundary', 'boundaries'), '2 boundaries');
    assert.equal(int(4237), '4,237');
    assert.equal(fewerOrMore(0.055), '5.5% fewer');
    assert.equal(fewerOrMore(-0.055), '5.5% more');
    assert.equal(fewerOrMore(0), 'as many');
  });

  const resultFile = join(FIXTURES, 'report', 'small-result.json');
  const full = parseBaseline(readFileSync(resultFile, 'utf8'), resultFile);

  /** One dataset of one item, one run, and a row that takes thousands of pages. */
  function single(): BenchmarkResult {
    const r: BenchmarkResult = structuredClone(full);
    const d = r.datasets[0]!;
    d.items = 1;
    r.datasets = [d];
    const same = (x: { provider: string; project: string; dataset: string; label: string }) =>
      x.provider === d.provider && x.project === d.project && x.dataset === d.dataset && x.label === d.label;
    r.rows = r.rows.filter(same);
    r.fit = r.fit.filter(same);
    r.lossy = r.lossy.filter(same).slice(0, 1);
    r.settings.runs = 1;
    r.rows.find((row) => row.format === 'toon' && row.tokenizer !== 'heuristic')!.pages = 4237;
    return r;
  }

  for (const name of ['table', 'markdown'] as const) {
    it(`${name}: counts agree with their nouns; every count of thousands has separators`, () => {
      const text = EXPORTERS[name].render({ result: single() }, { color: false, details: true });
      assert.doesNotMatch(text, /(^|[^\d,.])1 (datasets|items|runs|rows|cells|pages|chunks|exchanges)\b/m);
      assert.match(text, /\b1 dataset, \d+ rows\b/);
      assert.match(text, /median of 1 run\b/);
      assert.match(text, /, 1 item: /);
      assert.match(text, /4,237p/);
      assert.doesNotMatch(text, /(^|[^\d,.])\d{4,}(p|\s(rows|tokens|pages))\b/m);
    });
  }

  it('convert --stats: a larger output is "more", not a negative saving', () => {
    const text = formatConvertStats(
      {
        tokenizer: 'o200k_base',
        estimate: false,
        input: { format: 'json-compact', bytes: 1000, tokens: 200 },
        output: { format: 'json', bytes: 1200, tokens: 211 },
        saving: { baseline: 'input as given (json-compact)', tokens: -0.055, bytes: -0.2 },
      },
      1000,
    );
    assert.equal(
      text.split('\n')[2],
      'output vs input: 5.5% more o200k_base tokens, 20.0% more bytes; baseline: input as given (json-compact)',
    );
  });

  it('format --stats: pretty JSON costs more tokens than compact JSON, and says so; counts have separators', async () => {
    const issues = Array.from({ length: 20 }, (_, i) => ({
      key: `gh#${i}`,
      title: `issue ${i}`,
      state: 'open',
      source: 'github',
      labels: ['bug'],
      assignees: [],
    }));
    const file = join(dir, 'devboy-issues.json');
    writeFileSync(file, JSON.stringify(issues));
    const r = await runCli(['format', file, '--to', 'json', '--budget', '5000', '--stats', '-o', join(dir, 'pretty.json')]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /^chunk 1\/1: 20 of 20 issues in 1,\d{3} of 5,000 o200k_base tokens, json; \d+\.\d% more tokens than json_compact of the same items as sent; /,
    );
  });

  it('session: one call is "1 call"', async () => {
    const file = join(dir, 'one-call.jsonl');
    writeFileSync(file, '{"tool":"t","output":{"x":1}}\n');
    const r = await runCli(['session', file]);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stdout, /^session \S+ \(devboy\): 1 call, 0 boundaries; /);
  });
});
