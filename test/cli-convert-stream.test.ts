import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { after, describe, it } from 'node:test';
import { decodeGeneric } from '@blackwell-systems/gcf';
import type { JsonObject, JsonValue } from '../src/json/types.js';
import { runCli } from './helpers/cli.js';
import { corpusDir, REPO_ROOT } from './helpers/paths.js';
import { FULL_SUITE } from './helpers/sampling.js';

const dir = mkdtempSync(join(tmpdir(), 'devboy-cli-stream-'));
after(() => rmSync(dir, { recursive: true, force: true }));

/** Flat rows (scalars only) made from real corpus issues: what a tool reading a table would emit. */
function corpusRows(copies: number): JsonObject[] {
  const file = join(corpusDir(), 'github/betamaxpy__betamax/003_GET_repos_betamaxpy_betamax_issues_state_all_per_page_100.json');
  const issues = JSON.parse(readFileSync(file, 'utf8')).response.body as Array<Record<string, JsonValue>>;
  const rows: JsonObject[] = [];
  for (let c = 0; c < copies; c++) {
    for (const issue of issues) {
      const row: JsonObject = {
        id: (issue.id as number) + c * 1_000_000_000,
        number: issue.number!,
        title: issue.title!,
        state: issue.state!,
        user: (issue.user as JsonObject).login!,
        comments: issue.comments!,
        created_at: issue.created_at!,
        closed_at: issue.closed_at ?? null,
      };
      // Pull requests carry one more column: the keys change mid-stream, again and again.
      if (issue.pull_request) row.pr = true;
      rows.push(row);
    }
  }
  return rows;
}

/** The reference decoder's rows: sections in order, Maps made plain objects. */
function decodeRows(text: string): unknown[] {
  const plain = (m: Map<string, unknown>) => Object.fromEntries(m);
  return [...(decodeGeneric(text) as Map<string, Array<Map<string, unknown>>>).values()].flatMap((s) => s.map(plain));
}

describe('devboy convert --stream', () => {
  it('writes the first rows before the input ends, and the whole output decodes to the same rows', async () => {
    const rows = corpusRows(1).slice(0, 6);
    const child = spawn(process.execPath, [resolve(REPO_ROOT, 'bin', 'run.js'), 'convert', '-', '--to', 'gcf', '--stream'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    let stderr = '';
    const waiters: Array<() => void> = [];
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d;
      waiters.splice(0).forEach((w) => w());
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const closed = new Promise<number | null>((res) => child.on('close', res));
    const outputContains = async (needle: string) => {
      const deadline = Date.now() + 15_000;
      while (!out.includes(needle)) {
        if (Date.now() > deadline)
          assert.fail(`no ${JSON.stringify(needle)} on stdout while stdin is open; got ${JSON.stringify(out)} ${stderr}`);
        await new Promise<void>((res) => {
          waiters.push(res);
          setTimeout(res, 200);
        });
      }
    };

    child.stdin.write(JSON.stringify(rows[0]) + '\n');
    // stdin is still open: the header and the first row must already be out.
    await outputContains(`${rows[0]!.id}|`);
    assert.ok(out.startsWith('GCF profile=generic\n## rows [?]{'));
    assert.ok(!out.includes('##! summary'), 'no trailer before the input ends');
    for (const row of rows.slice(1, 3)) child.stdin.write(JSON.stringify(row) + '\n');
    await outputContains(`${rows[2]!.id}|`);
    for (const row of rows.slice(3)) child.stdin.write(JSON.stringify(row) + '\n');
    child.stdin.end();
    assert.equal(await closed, 0, stderr);
    assert.match(out, /##! summary counts=[\d,]+\n$/);
    assert.deepEqual(decodeRows(out), rows);
  });

  it('a large NDJSON file with -o: decodes with the reference library to the same rows, key order included', async () => {
    // 3,000 rows (600 KB: ten of the file stream's 64 KB chunks, rows cut across them) and 1,680
    // changes of keys; test:corpus converts 30,000.
    const rows = corpusRows(FULL_SUITE ? 300 : 30);
    const input = join(dir, 'rows.ndjson');
    writeFileSync(input, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
    const output = join(dir, 'rows.gcf');
    const r = await runCli(['convert', input, '--to', 'gcf', '--stream', '-o', output]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '');
    const text = readFileSync(output, 'utf8');
    assert.ok((text.match(/^## rows_\d+ \[\?\]/gm) ?? []).length > 100, 'the keys changed many times mid-stream');
    const decoded = decodeRows(text);
    assert.equal(decoded.length, rows.length);
    assert.equal(JSON.stringify(decoded), JSON.stringify(rows));
  });

  it('reads a JSON array of rows the same way', async () => {
    const rows = corpusRows(1);
    const input = join(dir, 'rows.json');
    writeFileSync(input, JSON.stringify(rows, null, 2));
    // -o: a streamed convert writes to the process's standard output, which an in-process run
    // does not capture (the first test reads it from a real process).
    const output = join(dir, 'rows-from-array.gcf');
    const r = await runCli(['convert', input, '--to', 'gcf', '--stream', '-o', output]);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(JSON.stringify(decodeRows(readFileSync(output, 'utf8'))), JSON.stringify(rows));
  });

  it('TOON and STC cannot stream: exit 2, saying they need counts up front', async () => {
    // A file, not standard input: the refusal is the flags', whatever the input (and runs in-process).
    const input = join(dir, 'one.ndjson');
    writeFileSync(input, '{"a":1}\n');
    const toonInput = join(dir, 'one.toon');
    writeFileSync(toonInput, 'a: 1\n');
    for (const to of ['toon', 'stc']) {
      const r = await runCli(['convert', input, '--to', to, '--stream']);
      assert.equal(r.code, 2);
      assert.equal(r.stdout, '');
      assert.match(
        r.stderr,
        new RegExp(
          `^devboy convert: --stream needs --to gcf: ${to.toUpperCase()} writes each array's length \\(\\[N\\]\\) before its first row.*GCF defers counts \\(\\[\\?\\]\\)`,
        ),
      );
      assert.equal(r.stderr.split('\n').length, 2);
    }
    const verify = await runCli(['convert', input, '--to', 'gcf', '--stream', '--verify']);
    assert.equal(verify.code, 2);
    const fromToon = await runCli(['convert', toonInput, '--to', 'gcf', '--stream', '--from', 'toon']);
    assert.equal(fromToon.code, 2);
    assert.match(fromToon.stderr, /--stream reads NDJSON or a JSON array of rows/);
  });

  it('a bad row ends the run at once, even while standard input stays open', async () => {
    const child = spawn(process.execPath, [resolve(REPO_ROOT, 'bin', 'run.js'), 'convert', '-', '--to', 'gcf', '--stream'], {
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.resume();
    const closed = new Promise<number | null>((res) => child.on('close', res));
    child.stdin.on('error', () => {});
    child.stdin.write('{"a":1}\n{"a":{"b":1}}\n');
    const timeout = new Promise<'still running'>((res) => setTimeout(() => res('still running'), 10_000).unref());
    const code = await Promise.race([closed, timeout]);
    child.stdin.end();
    assert.equal(code, 1, stderr);
    assert.equal(
      stderr,
      'devboy convert: <stdin>:2:1: field "a" is an object; GCF streaming writes flat rows of scalars only (convert without --stream to encode nested values)\n',
    );
  });

  it('a bad line: exit 1 with file:line:col; with -o nothing is written', async () => {
    const input = join(dir, 'bad.ndjson');
    writeFileSync(input, '{"a":1}\n{"a":2}\n{"a":3,}\n');
    const output = join(dir, 'bad.gcf');
    const r = await runCli(['convert', input, '--to', 'gcf', '--stream', '-o', output]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr, `devboy convert: ${input}:3:8: invalid JSON: unexpected '}' (expected a property name in double quotes)\n`);
    assert.deepEqual(
      readdirSync(dir).filter((f) => f === 'bad.gcf' || f.startsWith('.devboy-tmp')),
      [],
    );
  });

  it('rows are read as strictly as buffered convert reads a file: bad bytes, huge numbers and duplicate keys are refused at their line:col', async () => {
    // Files, in-process: standard input and a file are the same byte stream to the row reader
    // (the tests above read standard input).
    const cases: [Buffer, string][] = [
      [Buffer.from('{"a":1}\n{"a":1e400}\n'), '2:6: number 1e400 is out of range of a double: it would become Infinity'],
      [
        Buffer.concat([Buffer.from('{"a":1}\n{"a":"x'), Buffer.from([0xff]), Buffer.from('"}\n')]),
        '2:8: invalid UTF-8 at byte 15 (0xFF): a byte UTF-8 never uses',
      ],
      [Buffer.from('{"a":1,"a":2}\n'), '1:8: duplicate key "a" (first at 1:2); an object holds one value per key'],
    ];
    for (const [i, [bytes, message]] of cases.entries()) {
      const input = join(dir, `strict-${i}.ndjson`);
      writeFileSync(input, bytes);
      const r = await runCli(['convert', input, '--to', 'gcf', '--stream', '--from', 'ndjson']);
      assert.equal(r.code, 1, message);
      assert.equal(r.stderr, `devboy convert: ${input}:${message}\n`);
    }
  });
});
