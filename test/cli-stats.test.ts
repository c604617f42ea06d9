import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FORMAT_NAMES, loadFormat, type FormatName } from '../src/formats/registry.js';
import { verifyRoundTrip } from '../src/formats/verify.js';
import type { StatsResult } from '../src/stats/stats.js';
import { loadTokenizer } from '../src/tokens/registry.js';
import { runCli } from './helpers/cli.js';
import { corpusDir } from './helpers/paths.js';

const dir = mkdtempSync(join(tmpdir(), 'devboy-stats-'));
after(() => rmSync(dir, { recursive: true, force: true }));

const issuesFile = join(corpusDir(), 'github/betamaxpy__betamax/001_GET_repos_betamaxpy_betamax_issues_direction_asc_per_page_100.json');
const recording = JSON.parse(readFileSync(issuesFile, 'utf8')) as { response: { body: unknown[] } };
const issues = recording.response.body;
// The recorded exchange, its body cut to the first six of its 16 items (five issues and a pull
// request), under its own file name: as given and as items it still chooses apart under either
// tokenizer (stc and gcf, asserted below), and each stats run of it does three-eighths of the work.
const exchangeFile = join(dir, basename(issuesFile));
writeFileSync(exchangeFile, JSON.stringify({ ...recording, response: { ...recording.response, body: issues.slice(0, 6) } }, null, 2));
// These tests read the report's lines for what they say: on a terminal wide enough that nothing folds
// (how the report fits 100 columns is test/report-widths.test.ts's).
const WIDE = { terminal: { columns: 1000 } };

// Stats of the betamax 001 exchange as given, as text and as --json: read by the first test and by --items's, run once.
const asGivenText = once(() => runCli(['stats', exchangeFile, '--runs', '1'], WIDE));
const asGivenJson = once(() => runCli(['stats', exchangeFile, '--runs', '1', '--json']));

describe('devboy stats', () => {
  it('prints the recommendation first, and it is the --json recommendation and the starred raw cell', async () => {
    const text = await asGivenText();
    assert.equal(text.code, 0, text.stderr);
    const json = await asGivenJson();
    const s = JSON.parse(json.stdout) as StatsResult;
    assert.equal(s.schema, 'devboy.stats/1');
    assert.equal(s.input.shape, 'GitHub issues');
    const r = s.recommendation;
    const lines = text.stdout.split('\n');
    assert.match(
      lines[0]!,
      /^devboy stats: .*001_GET_repos_betamaxpy_betamax_issues.*\(json, [\d,]+ bytes\): the whole input as given \(it holds GitHub issues, 5 items; --items measures them alone, --type merge_requests its 1 pull request\)$/,
    );
    assert.equal(lines[3], recommendationLine(s));
    // The raw o200k_base line stars the recommended format's cell.
    // The table is borderless, its columns two or more spaces apart.
    // Ten formats in 100 columns: a cell's change and star may go on below its tokens, so columns are
    // read by the header's offsets over the o200k_base line and its continuation lines.
    const head = lines.find((l) => /^level\s+tokenizer\s/.test(l))!;
    const starts = FORMAT_NAMES.map((f) => head.search(new RegExp(`(?<=\\s)${f.replace('-', '\\-')}(?=\\s|$)`)));
    const rawAt = lines.findIndex((l) => /^raw\s+heuristic/.test(l));
    const o200kAt = lines.findIndex((l, i) => i > rawAt && /^\s+o200k_base\s/.test(l));
    const block: string[] = [];
    for (let i = o200kAt; i < lines.length && !/^\s+pages\s/.test(lines[i]!); i++) block.push(lines[i]!);
    const column = (k: number) =>
      block.map((l) => l.slice(starts[k]!, k + 1 < starts.length && starts[k + 1]! > 0 ? starts[k + 1] : undefined)).join(' ');
    const starred = FORMAT_NAMES.findIndex((_, k) => starts[k]! > 0 && column(k).includes('*'));
    assert.equal(FORMAT_NAMES[starred], r.format);
    assert.ok(column(starred).trim().startsWith(r.tokens.toLocaleString('en-US')));
  });

  it('reads TOON, and measures the value it means (the same counts as its JSON)', async () => {
    // Three of the issues: a TOON table of nested, optional and null fields is read as the JSON it
    // means at any length; the whole page made each of the two runs four times as long.
    const some = issues.slice(0, 3);
    const toonFile = join(dir, 'issues.toon');
    writeFileSync(toonFile, (await loadFormat('toon')).encode(some as never));
    const jsonFile = join(dir, 'issues.json');
    writeFileSync(jsonFile, JSON.stringify(some));
    const fromToon = JSON.parse((await runCli(['stats', toonFile, '--runs', '1', '--json'])).stdout) as StatsResult;
    const fromJson = JSON.parse((await runCli(['stats', jsonFile, '--runs', '1', '--json'])).stdout) as StatsResult;
    assert.equal(fromToon.input.format, 'toon');
    const counts = (s: StatsResult) => s.rows.map((r) => [r.level, r.format, r.tokenizer, r.tokens, r.pages]);
    assert.deepEqual(counts(fromToon), counts(fromJson));
  });

  it('bad input: one line naming file:line:col, exit 1; an unknown tokenizer is a usage error', async () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '[{"a": 1},\n {"a": }]\n');
    const r = await runCli(['stats', bad]);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, new RegExp(`^devboy stats: ${bad.replace(/[.]/g, '\\.')}:2:8: invalid JSON: [^\\n]*\\n$`));
    const u = await runCli(['stats', issuesFile, '--tokenizers', 'gpt2']);
    assert.equal(u.code, 2);
    assert.match(u.stderr, /^devboy stats: --tokenizers: unknown value 'gpt2'/);
  });
});

describe('devboy stats and convert --to auto: one definition of the input', () => {
  // betamax 001 (cut, above): a recorded exchange whose body is an issue list holding a pull request.
  // As given, the whole file is the input; its issues alone are what --items measures, and say so. The two choose
  // apart (stc for the whole file, gcf for the issues alone, under either tokenizer), so a stats that
  // measured the items by default would recommend what auto does not write. (It was betamax 003,
  // five times the size and choosing the same way: the size proved nothing more and cost 5 s.)
  // A provider body is read as one whatever its length: three of the issues, a quarter of the work.
  const plainFile = join(dir, 'plain-issues.json');
  writeFileSync(plainFile, JSON.stringify(issues.slice(0, 3)));
  const rowsFile = join(dir, 'rows.json');
  writeFileSync(rowsFile, JSON.stringify(Array.from({ length: 30 }, (_, i) => ({ id: i, name: `row ${i}`, tags: i % 3 ? ['a'] : [] }))));

  // A lone surrogate: JSON and STC keep it as an escape, TOON and GCF cannot write it as UTF-8.
  const surrogateFile = join(dir, 'surrogate.json');
  writeFileSync(surrogateFile, '[{"id":1,"name":"\\ud800 half a pair"},{"id":2,"name":"whole"}]');

  for (const [what, file] of [
    ['a recorded exchange (betamax 001)', exchangeFile],
    ['a provider body', plainFile],
    ['a value no provider sends', rowsFile],
    ['a value only some formats can write (a lone surrogate)', surrogateFile],
  ] as const) {
    it(`${what}: stats recommends what auto writes, with the same tokens, under either tokenizer`, async () => {
      for (const tokenizer of ['o200k_base', 'heuristic'] as const) {
        const st = await runCli(['stats', file, '--runs', '1', '--json', '--tokenizers', tokenizer]);
        assert.equal(st.code, 0, st.stderr);
        const s = JSON.parse(st.stdout) as StatsResult;
        assert.equal(s.input.measured, 'input');
        assert.equal(s.recommendation.measured, 'input');
        assert.deepEqual(s.settings.levels, ['raw']);
        const auto = await runCli(['convert', file, '--to', 'auto', '--tokenizer', tokenizer]);
        assert.equal(auto.code, 0, auto.stderr);
        // The choice is one paragraph, folded to 100 columns on stderr.
        const picked = /^auto: (\S+), the lossless format with the fewest \S+ tokens[^:]*: ([\d,]+)/.exec(
          auto.stderr.replace(/\n {2}/g, ' '),
        );
        assert.ok(picked, auto.stderr);
        assert.deepEqual(
          [s.recommendation.format, s.recommendation.tokens.toLocaleString('en-US')],
          [picked[1], picked[2]],
          `${file} ${tokenizer}`,
        );
        assert.equal(s.input.bytes, Buffer.byteLength(readFileSync(file, 'utf8')));
        // A format that cannot write the input is listed with its reason, never left out silently.
        // YAML writes it as an escape; the formats that write literal UTF-8 cannot.
        const cannot = file === surrogateFile ? ['toon', 'gcf', 'csv', 'markdown-table', 'markdown-kv', 'xml'] : [];
        assert.deepEqual(
          s.unmeasured.map((u) => u.format),
          cannot,
        );
        for (const u of s.unmeasured) assert.match(u.reason, /lone surrogate \\ud800/);
        for (const f of cannot) assert.ok(!s.rows.some((r) => r.format === f));
      }
      if (file === surrogateFile) {
        const text = await runCli(['stats', file, '--runs', '1']);
        assert.equal(text.code, 0, text.stderr);
        assert.match(text.stdout, /\nNot measured: 6 level\/format cells\n {2}raw toon: .*lone surrogate/);
      }
    });
  }

  it('--items measures the provider items alone, at every level, and says so in the text and --json', async () => {
    const whole = JSON.parse((await asGivenJson()).stdout) as StatsResult;
    const r = await runCli(['stats', exchangeFile, '--runs', '1', '--json', '--items']);
    assert.equal(r.code, 0, r.stderr);
    const s = JSON.parse(r.stdout) as StatsResult;
    assert.equal(s.input.measured, 'items');
    assert.equal(s.recommendation.measured, 'items');
    assert.equal(s.input.shape, 'GitHub issues');
    assert.deepEqual(s.settings.levels, ['raw', 'full', 'standard', 'minimal']);
    const compact = (x: StatsResult) =>
      x.rows.find((row) => row.level === 'raw' && row.format === 'json-compact' && row.tokenizer === 'o200k_base')!;
    assert.ok(compact(s).bytes < compact(whole).bytes, 'the items are less than the whole input');
    // What makes the default matter: the whole input and its items choose apart.
    assert.notEqual(s.recommendation.format, whole.recommendation.format);
    const text = await runCli(['stats', exchangeFile, '--runs', '1', '--items'], WIDE);
    const lines = text.stdout.split('\n');
    assert.match(
      lines[0]!,
      /: GitHub issues, 5 items: the provider items alone \(--items\), not the whole input; 1 pull request left out: they are a list of their own \(--type merge_requests measures them\)$/,
    );
    assert.match(
      lines[3]!,
      /^Recommendation: \S+, the lossless format with the fewest o200k_base tokens for its provider items as sent \(--items\): /,
    );
    const asGiven = await asGivenText();
    assert.match(
      asGiven.stdout.split('\n')[0]!,
      /: the whole input as given \(it holds GitHub issues, 5 items; --items measures them alone, --type merge_requests its 1 pull request\)$/,
    );
  });

  it('--items on a value that is no provider response is a one-line data error', async () => {
    const r = await runCli(['stats', rowsFile, '--items']);
    assert.equal(r.code, 1);
    assert.equal(r.stdout, '');
    assert.match(r.stderr, /^devboy stats: .*rows\.json: cannot tell what these items are/);
    assert.equal(r.stderr.trim().split('\n').length, 1);
  });
});

describe('devboy convert --to auto', () => {
  it('writes the fewest-token lossless format (checked here against every format), decoding to the input; stderr names it and the runner-up', async () => {
    const input = join(dir, 'auto-issues.json');
    writeFileSync(input, JSON.stringify(issues));
    const r = await runCli(['convert', input, '--to', 'auto']);
    assert.equal(r.code, 0, r.stderr);
    const o200k = await loadTokenizer('o200k_base');
    const ranked: { name: FormatName; tokens: number }[] = [];
    for (const name of FORMAT_NAMES) {
      const format = await loadFormat(name);
      const text = format.encode(issues as never);
      if (verifyRoundTrip(format, issues as never, text).lossless) ranked.push({ name, tokens: o200k.count(text) });
    }
    ranked.sort((a, b) => a.tokens - b.tokens);
    const [best, next] = ranked;
    const chosen = await loadFormat(best!.name);
    assert.equal(r.stdout, `${chosen.encode(issues as never)}\n`);
    assert.equal(JSON.stringify(chosen.decode(r.stdout.replace(/\n$/, ''))), JSON.stringify(issues));
    assert.match(
      r.stderr.replace(/\n {2}/g, ' '),
      new RegExp(
        `^auto: ${best!.name}, the lossless format with the fewest o200k_base tokens for this input: ${best!.tokens.toLocaleString('en-US')}; runner-up ${next!.name}: ${next!.tokens.toLocaleString('en-US')}, `,
      ),
    );
  });

  it('a format that loses this input is never chosen: mixed key order in rows leaves TOON and GCF out', async () => {
    const input = join(dir, 'mixed.json');
    const rows = Array.from({ length: 40 }, (_, i) => (i % 2 ? { id: i, name: `n${i}`, ok: true } : { name: `n${i}`, id: i, ok: false }));
    writeFileSync(input, JSON.stringify(rows));
    const r = await runCli(['convert', input, '--to', 'auto', '--tokenizer', 'heuristic']);
    assert.equal(r.code, 0, r.stderr);
    assert.match(r.stderr, /not lossless here: .*toon/);
    const chosen = /^auto: (json|json-compact|stc), .*heuristic tokens \(an estimate\)/.exec(r.stderr)?.[1] as FormatName | undefined;
    assert.ok(chosen, r.stderr);
    const back = (await loadFormat(chosen)).decode(r.stdout.replace(/\n$/, ''));
    assert.equal(JSON.stringify(back), JSON.stringify(rows));
  });
});

function once<T>(run: () => Promise<T>): () => Promise<T> {
  let result: Promise<T> | undefined;
  return () => (result ??= run());
}

function recommendationLine(s: StatsResult): string {
  const r = s.recommendation;
  const n = (x: number) => x.toLocaleString('en-US');
  const pctWord = (f: number) => `${Math.abs(f * 100).toFixed(1)}% ${f > 0 ? 'fewer' : 'more'}`;
  const runner = r.runner_up
    ? `; runner-up ${r.runner_up.format}: ${n(r.runner_up.tokens)}, ${pctWord(1 - r.runner_up.tokens / r.tokens)} than ${r.format}`
    : '';
  return `Recommendation: ${r.format}, the lossless format with the fewest o200k_base tokens for this input as given: ${n(r.tokens)}, ${pctWord(r.saving)} than json_compact (${n(r.baseline.tokens)})${runner}`;
}
