import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { rmSync } from 'node:fs';
import { candidateFormats, FORMAT_INFO } from '../src/formats/info.js';
import { loadFormat } from '../src/formats/registry.js';
import { FORMAT_NAMES } from '../src/formats/types.js';
import { runCli, runCliWithStdin } from './helpers/cli.js';
import { corpusDir } from './helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'devboy-convert-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const corpus = corpusDir();
const issuesFile = join(corpus, 'github/betamaxpy__betamax/001_GET_repos_betamaxpy_betamax_issues_direction_asc_per_page_100.json');
const issues = JSON.parse(readFileSync(issuesFile, 'utf8')).response.body;
const issuesJson = join(dir, 'issues.json');
writeFileSync(issuesJson, JSON.stringify(issues, null, 2));

describe('devboy convert', () => {
  for (const to of FORMAT_NAMES) {
    it(`json -> ${to} -> json gives back the same issues (through files, detected by extension)`, async () => {
      const ext = to === 'json-compact' ? '.compact.json' : to.startsWith('markdown') ? '.md' : `.${to}`;
      const encoded = join(dir, `issues-${to}${ext}`);
      const there = await runCli(['convert', issuesJson, '--to', to, '-o', encoded]);
      assert.equal(there.code, 0, there.stderr);
      assert.equal(there.stdout, '');
      const back = await runCli(['convert', encoded, '--to', 'json-compact']);
      assert.equal(back.code, 0, back.stderr);
      const value = JSON.parse(back.stdout);
      if (to === 'gcf')
        assert.deepEqual(value, issues); // GCF keeps values; key order is its known loss
      else if (FORMAT_INFO[to].roundTrip === 'lossy') {
        // A lossy baseline gives back what its reader makes of the text: the codec's own decode.
        const codec = await loadFormat(to);
        assert.ok(JSON.stringify(value) === JSON.stringify(codec.decode(codec.encode(issues))), `${to}: not what its reader reads`);
        assert.ok(JSON.stringify(value) !== JSON.stringify(issues), `${to} is declared lossy yet kept every value`);
      } else assert.ok(JSON.stringify(value) === JSON.stringify(issues), `${to} changed the issues`);
    });
  }

  for (const to of FORMAT_NAMES.filter((n) => FORMAT_INFO[n].roundTrip === 'lossy')) {
    it(`--verify fails for ${to} on GitHub issues, naming the path, and writes nothing`, async () => {
      const out = join(dir, `lossy-${to}`);
      const r = await runCli(['convert', issuesJson, '--to', to, '--verify', '-o', out]);
      assert.equal(r.code, 1);
      assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
      assert.match(r.stderr, new RegExp(`issues\\.json: round trip failed, output is not lossless: ${to} .* at \\$\\[0\\]`));
      assert.equal(existsSync(out), false);
    });
  }

  it('--verify passes for yaml on GitHub issues', async () => {
    const r = await runCli(['convert', issuesJson, '--to', 'yaml', '--verify']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^verified: yaml decodes to the same value/m);
    assert.match(r.stdout, /^- url: https:\/\/api\.github\.com\/repos\/betamaxpy\/betamax\/issues\/6\n {2}repository_url: /);
  });

  it('--to yaml --verify passes on a corpus diff with long lines and blank context lines (yaml folded it wrongly)', async () => {
    const recorded = join(
      corpus,
      'gitlab/rust-lang__triagebot__as-gitlab/000_GET_api_v4_projects_rust_lang_2Ftriagebot_merge_requests_2487_diffs.json',
    );
    const file = join(dir, 'diffs.json');
    writeFileSync(file, JSON.stringify(JSON.parse(readFileSync(recorded, 'utf8')).response.body));
    const r = await runCli(['convert', file, '--to', 'yaml', '--verify']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^verified: yaml decodes to the same value/m);
  });

  it('--to yaml --verify fails on a corpus diff yaml cannot hold, naming the path and where the strings part (its known loss)', async () => {
    const recorded = join(corpus, 'github/rust-lang__triagebot/000_GET_repos_rust_lang_triagebot_pulls_2487_files_per_page_100.json');
    const file = join(dir, 'files.json');
    writeFileSync(file, JSON.stringify(JSON.parse(readFileSync(recorded, 'utf8')).response.body));
    const r = await runCli(['convert', file, '--to', 'yaml', '--verify']);
    assert.equal(r.code, 1);
    assert.equal(
      r.stderr,
      `devboy convert: ${file}: round trip failed, output is not lossless: yaml value changed at $[2].patch, character 319 (expected …"esponse {\\n     }\\n }\\n \\n-#[derive(Copy, Clone, serde::Serializ"…; got …"esponse {\\n     }\\n }\\n\\\\\\n-#[derive(Copy, Clone, serde::Serializ"…)\n`,
    );
  });

  it('yaml keeps a lone surrogate, as JSON does: it writes it as an escape in a double-quoted string', async () => {
    const file = join(dir, 'lone.json');
    writeFileSync(file, '[{"title":"ok"},{"title":"bad \\ud800 here"}]');
    const r = await runCli(['convert', file, '--to', 'yaml', '--verify']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '- title: ok\n- title: "bad \\ud800 here"\n');
  });

  it('--to auto never picks a baseline, even one that holds the input exactly in fewer tokens', async () => {
    const file = join(dir, 'strings.json');
    writeFileSync(file, JSON.stringify([{ a: 'x' }, { a: 'y' }, { a: 'z' }]));
    const csv = await runCli(['convert', file, '--to', 'csv', '--verify']);
    assert.equal(csv.code, 0, csv.stderr);
    assert.equal(csv.stdout, 'a\nx\ny\nz\n');
    const auto = await runCli(['convert', file, '--to', 'auto']);
    assert.equal(auto.code, 0, auto.stderr);
    const chosen = /^auto: ([^,]+),/m.exec(auto.stderr)?.[1] ?? auto.stderr;
    assert.ok(candidateFormats().includes(chosen as never), `auto chose ${chosen}`);
    assert.doesNotMatch(auto.stderr, /\b(yaml|csv|markdown-table|markdown-kv|xml)\b/);
  });

  it('--verify passes for toon and says so', async () => {
    const r = await runCli(['convert', issuesJson, '--to', 'toon', '--verify']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /^verified: toon decodes to the same value/m);
  });

  it('--verify fails with exit 1 when GCF loses key order, and writes nothing', async () => {
    const out = join(dir, 'lossy.gcf');
    const r = await runCli(['convert', issuesJson, '--to', 'gcf', '--verify', '-o', out]);
    assert.equal(r.code, 1);
    assert.equal(r.stderr.trim().split('\n').length, 1, r.stderr);
    assert.match(r.stderr, /issues\.json: round trip failed, output is not lossless: gcf key order changed at \$\[\d+\]/);
    assert.equal(existsSync(out), false);
  });

  it('--stats names the tokenizer and the baseline on every figure', async () => {
    const r = await runCli(['convert', issuesJson, '--to', 'toon', '--stats']);
    assert.equal(r.code, 0, r.stderr);
    const lines = r.stderr.trim().split('\n');
    assert.equal(lines.length, 3);
    assert.match(lines[0]!, /^input\s+json\s+[\d,]+ bytes\s+[\d,]+ o200k_base tokens$/);
    assert.match(lines[1]!, /^output\s+toon\s+[\d,]+ bytes\s+[\d,]+ o200k_base tokens$/);
    assert.match(
      lines[2]!,
      /^output vs input: \d+\.\d% (fewer|more) o200k_base tokens, \d+\.\d% (fewer|more) bytes; baseline: input as given \(json\)$/,
    );
    const heuristic = await runCli(['convert', issuesJson, '--to', 'toon', '--stats', '--tokenizer', 'heuristic']);
    assert.match(heuristic.stderr, /heuristic tokens, an estimate/);
    // The stats are measured, not assumed: the input line's byte count is the file's.
    const bytes = Number(/input\s+json\s+([\d,]+) bytes/.exec(lines[0]!)![1]!.replace(/,/g, ''));
    assert.equal(bytes, Buffer.byteLength(readFileSync(issuesJson, 'utf8').replace(/\n$/, '')));
  });

  it('reads NDJSON with --from ndjson', async () => {
    // A file, in-process: standard input is the next test's, and reads the same text.
    const file = join(dir, 'rows.log');
    writeFileSync(file, '{"a":1}\n{"a":2}\n');
    const r = await runCli(['convert', file, '--from', 'ndjson', '--to', 'json-compact']);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, '[{"a":1},{"a":2}]\n');
  });

  it('detects the format from content on standard input, or in a file with no extension', async () => {
    const toon = await runCli(['convert', issuesJson, '--to', 'toon']);
    // In-process: detection reads the text, whatever pipe brought it.
    const r = await runCliWithStdin(['convert', '-', '--to', 'json-compact'], toon.stdout);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout.trim(), JSON.stringify(issues));
    // A name with no extension is read by content as standard input is, and runs in-process.
    const gcfFile = join(dir, 'rows-gcf');
    writeFileSync(gcfFile, 'GCF profile=generic\n## [2]{a}\n1\n2\n');
    const gcf = await runCli(['convert', gcfFile, '--to', 'json-compact']);
    assert.equal(gcf.stdout.trim(), '[{"a":1},{"a":2}]');
  });
});

describe('devboy convert: bad input', () => {
  it('malformed JSON: exit 1, one line with file:line:col, no stack trace', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{\n  "a": [1, 2,\n}\n');
    const r = await runCli(['convert', bad, '--to', 'toon']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.equal(r.stderr, `devboy convert: ${bad}:3:1: invalid JSON: unexpected '}' (expected a value)\n`);
  });

  it('malformed TOON names the line', async () => {
    const bad = join(dir, 'bad.toon');
    writeFileSync(bad, 'items[3]{a,b}:\n  1,2\n  3,4\n');
    const r = await runCli(['convert', bad, '--to', 'json']);
    assert.equal(r.code, 1);
    assert.match(r.stderr, new RegExp(`^devboy convert: ${bad.replace(/[.]/g, '\\.')}:\\d+: invalid TOON: .*3.*\\n$`));
  });

  // A missing FILE reads piped input, or is a usage error on a terminal: test/cli-messages.test.ts.
  it('unknown format, missing file: exit 2', async () => {
    const unknown = await runCli(['convert', issuesJson, '--to', 'not-a-format']);
    assert.equal(unknown.code, 2);
    assert.equal(unknown.stderr, `devboy convert: --to: unknown value 'not-a-format' (one of: ${[...FORMAT_NAMES, 'auto'].join(', ')})\n`);
    const nofile = await runCli(['convert', join(dir, 'nope.json'), '--to', 'toon']);
    assert.equal(nofile.code, 2);
    assert.match(nofile.stderr, /nope\.json: no such file\n$/);
  });

  it('a failed conversion leaves an existing output file untouched and no temporary files', async () => {
    const out = join(dir, 'keep.toon');
    writeFileSync(out, 'previous\n');
    const bad = join(dir, 'bad2.json');
    writeFileSync(bad, '[1,');
    const r = await runCli(['convert', bad, '--to', 'toon', '-o', out]);
    assert.equal(r.code, 1);
    assert.equal(readFileSync(out, 'utf8'), 'previous\n');
    assert.deepEqual(
      readdirSync(dir).filter((f) => f.startsWith('.devboy-tmp')),
      [],
    );
  });

  it('text that is no known format: exit 1 and a hint to pass --from', async () => {
    // A name with no extension: the content decides, as for standard input (see 'detects the format from content').
    const file = join(dir, 'unknown-text');
    writeFileSync(file, '{"a": nope}');
    const r = await runCli(['convert', file, '--to', 'json']);
    assert.equal(r.code, 1);
    assert.ok(r.stderr.startsWith(`devboy convert: ${file}:1:8: cannot tell the format `), r.stderr);
    assert.match(r.stderr, /cannot tell the format .*pass --from/);
  });
});
