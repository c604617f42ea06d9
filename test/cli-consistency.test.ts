import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { closest } from '../src/cli/spelling.js';
import { FORMAT_NAMES } from '../src/formats/types.js';
import { runCli } from './helpers/cli.js';
import { FIXTURES, REPO_ROOT } from './helpers/paths.js';

// One name per idea and no flag silently ignored: partner flags refused alone, --provider narrowing
// the embedded corpus, the other spelling of a flag or value accepted, a mistyped flag answered
// with the closest one, JSON never dumped on a terminal, export folders made, and no word or path
// an installed user cannot follow.

const small = [
  '--dataset',
  'comments',
  '--levels',
  'minimal',
  '--formats',
  'json-compact,toon',
  '--runs',
  '1',
  '--tokenizers',
  'heuristic',
];
const dir = mkdtempSync(join(tmpdir(), 'devboy-consistency-'));
after(() => rmSync(dir, { recursive: true, force: true }));

describe('flags that need a partner, and where --provider reads from', () => {
  for (const [args, pattern] of [
    [['--owner', 'acme'], /^devboy benchmark: --owner needs --repo/],
    [['--repo', 'widgets'], /^devboy benchmark: --repo needs --owner/],
    [['--provider', 'gitlab', '--owner', 'acme'], /^devboy benchmark: --owner needs --repo/],
    [['--jql', 'project = X'], /^devboy benchmark: --jql is a Jira search: it needs --provider jira/],
    [['--provider', 'github', '--jql', 'x'], /^devboy benchmark: --jql is a Jira search: it needs --provider jira/],
    [
      ['--corpus', 'corpus', '--provider', 'jira', '--jql', 'x'],
      /^devboy benchmark: --jql reads Jira live; a corpus run narrows with --provider and --project/,
    ],
    [['--token', 'abc'], /^devboy benchmark: --token is for live runs \(--owner and --repo, or --provider jira with --project or --jql\)/],
  ] as const) {
    it(`benchmark ${args.join(' ')}: refused in one line, exit 2`, async () => {
      const r = await runCli(['benchmark', ...args, ...small]);
      assert.equal(r.code, 2, r.stdout + r.stderr);
      assert.match(r.stderr, pattern);
      assert.equal(r.stderr.split('\n').length, 2, r.stderr);
    });
  }

  it('--provider alone narrows the embedded corpus to that provider, as --project does', async () => {
    const r = await runCli(['benchmark', '--provider', 'gitlab', ...small, '--json']);
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout) as BenchmarkResult;
    assert.equal(result.source.kind, 'corpus');
    assert.equal(result.source.provider, 'gitlab');
    assert.ok(result.datasets.length > 0);
    assert.ok(result.datasets.every((d) => d.provider === 'gitlab'));
  });
});

describe('one name per idea', () => {
  const input = join(dir, 'in.json');
  writeFileSync(
    input,
    JSON.stringify([
      { a: 1, b: 'x' },
      { a: 2, b: 'y' },
    ]),
  );

  it('convert --format is --to, and json_compact is json-compact (with a note)', async () => {
    const to = await runCli(['convert', input, '--to', 'json-compact']);
    const format = await runCli(['convert', input, '--format', 'json-compact']);
    const spelled = await runCli(['convert', input, '--to', 'json_compact']);
    assert.equal(to.code, 0, to.stderr);
    assert.equal(format.code, 0, format.stderr);
    assert.equal(spelled.code, 0, spelled.stderr);
    assert.equal(format.stdout, to.stdout);
    assert.equal(spelled.stdout, to.stdout);
    assert.match(spelled.stderr, /^devboy convert: --to json_compact read as json-compact\n/);
  });

  it('benchmark takes --tokenizer and --format for --tokenizers and --formats, and json_compact in a list', async () => {
    const r = await runCli([
      'benchmark',
      '--dataset',
      'comments',
      '--levels',
      'minimal',
      '--format',
      'json_compact,toon',
      '--runs',
      '1',
      '--tokenizer',
      'heuristic',
      '--project',
      'artsy__emission',
      '--json',
    ]);
    assert.equal(r.code, 0, r.stderr);
    const result = JSON.parse(r.stdout) as BenchmarkResult;
    assert.deepEqual(result.settings.formats, ['json-compact', 'toon']);
    assert.deepEqual(
      result.tokenizers.map((t) => t.name),
      ['heuristic'],
    );
  });

  it('session takes --to for --format and --tokenizers for --tokenizer; --savings-baseline takes json-compact', async () => {
    const calls = join(dir, 'calls.jsonl');
    writeFileSync(calls, `${JSON.stringify({ tool: 'list_issues', output: [{ id: 1, title: 'a' }] })}\n`);
    const a = await runCli(['session', calls, '--format', 'toon', '--tokenizer', 'heuristic', '--json']);
    const b = await runCli(['session', calls, '--to', 'toon', '--tokenizers', 'heuristic', '--savings-baseline', 'json-compact', '--json']);
    assert.equal(a.code, 0, a.stderr);
    assert.equal(b.code, 0, b.stderr);
    assert.deepEqual(JSON.parse(b.stdout), JSON.parse(a.stdout));
  });

  for (const [args, pattern] of [
    [['benchmark', '--level', 'minimal'], /^devboy benchmark: unknown flag --level; did you mean --levels\?\n$/],
    [['convert', 'x.json', '--too', 'toon'], /^devboy convert: unknown flag --too; did you mean --to\?\n$/],
    [['convert', 'x.json', '--to', 'tooon'], /^devboy convert: --to: unknown value 'tooon'; did you mean toon\? \(one of: /],
    [['benchmark', '--zzzzzz'], /^devboy benchmark: unknown flag --zzzzzz \(devboy help benchmark lists the flags\)\n$/],
  ] as const) {
    it(`${args.join(' ')}: the closest flag or value, one line, exit 2`, async () => {
      const r = await runCli([...args]);
      assert.equal(r.code, 2, r.stderr);
      assert.match(r.stderr, pattern);
    });
  }
});

describe('either spelling of a format, for every flag that takes one', () => {
  const input = join(dir, 'spell.json');
  writeFileSync(input, JSON.stringify([{ a: 1 }, { a: 2 }]));
  // A small recorded page and the heuristic tokenizer: the note comes from reading the flags, and the
  // largest page (betamax's 100 issues, 470 KB) counted with o200k_base only made each run slower.
  const comments = join(REPO_ROOT, 'corpus', 'github', 'artsy__emission', '000_GET_repos_artsy_emission_issues_327_comments.json');
  const calls = join(dir, 'spell.jsonl');
  writeFileSync(calls, `${JSON.stringify({ tool: 'list_issues', output: [{ id: 1, title: 'a' }] })}\n`);

  // A fresh process each: oclif names a command's flags only when it parses them, so a run in a
  // process where the command has parsed before could pass where a user's first run does not. Two
  // flags of one command share its process: one parse reads both, and each says its own note.
  type Note = readonly [flag: string, value: string, fixed: string];
  const toCompact: Note = ['--to', 'json_compact', 'json-compact'];
  const baselineCompact: Note = ['--savings-baseline', 'json-compact', 'json_compact'];
  for (const [args, notes] of [
    [['convert', input, '--to', 'json_compact'], [toCompact]],
    [
      ['format', comments, '--to', 'json_compact', '--savings-baseline=json-compact', '--tokenizer', 'heuristic', '--json'],
      [toCompact, baselineCompact],
    ],
    [['session', calls, '--format', 'json_compact', '--tokenizer', 'heuristic', '--json'], [['--format', 'json_compact', 'json-compact']]],
    [['stats', input, '--savings-baseline', 'json-compact', '--tokenizers', 'heuristic', '--json'], [baselineCompact]],
  ] as const satisfies ReadonlyArray<readonly [readonly string[], readonly Note[]]>) {
    it(`${args.slice(0, 1).concat(args.slice(2)).join(' ')}: read as ${notes.map((n) => n[2]).join(' and ')}, with a note each`, async () => {
      const r = await runCli([...args], { subprocess: true });
      assert.equal(r.code, 0, r.stderr);
      const said = notes.map(([flag, value, fixed]) => `devboy ${args[0]}: ${flag} ${value} read as ${fixed}\n`).join('');
      assert.ok(r.stderr.startsWith(said), r.stderr);
    });
  }

  it('proxy --format json_compact: read as json-compact (the run then stops for want of an upstream)', async () => {
    const r = await runCli(['proxy', '--format', 'json_compact'], { subprocess: true });
    assert.equal(r.code, 2, r.stderr);
    assert.match(r.stderr, /^devboy proxy: --format json_compact read as json-compact\ndevboy proxy: no upstream: /);
  });

  it('closest: a value one edit away beats a name it merely begins with', () => {
    assert.equal(closest('json_compact', FORMAT_NAMES), 'json-compact');
    assert.equal(closest('json-compat', FORMAT_NAMES), 'json-compact');
    assert.equal(closest('jsn', FORMAT_NAMES), 'json');
    assert.equal(closest('markdown-t', FORMAT_NAMES), 'markdown-table');
    assert.equal(closest('tooon', FORMAT_NAMES), 'toon');
    assert.equal(closest('level', ['levels', 'limit', 'list']), 'levels');
  });
});

describe('output where a user wants it', () => {
  const part = join(FIXTURES, 'report', 'small-result.json');

  it('merge to a terminal without -o is refused in one line; to a pipe or -o it writes JSON', async () => {
    const tty = await runCli(['merge', part], { terminal: { columns: 100 } });
    assert.equal(tty.code, 2);
    assert.equal(tty.stdout, '');
    assert.match(
      tty.stderr,
      /^devboy merge: the merged result is JSON for machines: write it with -o FILE, or pipe it \(devboy merge FILES > merged\.json\)\n$/,
    );
    const piped = await runCli(['merge', part]);
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(
      (JSON.parse(piped.stdout) as BenchmarkResult).rows.length,
      (JSON.parse(readFileSync(part, 'utf8')) as BenchmarkResult).rows.length,
    );
  });

  // One benchmark run for two claims: its export files and its table on a 72-column terminal.
  const target = join(dir, 'new', 'results', 'baseline.json');
  const md = join(dir, 'new', 'reports', 'report.md');
  let onTerminal: ReturnType<typeof runCli> | undefined;
  const benchmarkOnTerminal = () =>
    (onTerminal ??= runCli(['benchmark', ...small, '--project', 'artsy__emission', '--export-json', target, '--export-markdown', md], {
      terminal: { columns: 72 },
    }));

  it('export files get their missing folders (results/ in a new repository)', async () => {
    const r = await benchmarkOnTerminal();
    assert.equal(r.code, 0, r.stderr);
    assert.ok(existsSync(target) && existsSync(md));
    assert.equal((JSON.parse(readFileSync(target, 'utf8')) as BenchmarkResult).schema, 'devboy.benchmark/1');
  });

  it('a table on a terminal fits its width', async () => {
    const r = await benchmarkOnTerminal();
    assert.equal(r.code, 0, r.stderr);
    assert.ok(r.stdout.split('\n').length > 5, r.stdout);
    const { displayWidth } = await import('../src/escape/terminal.js');
    for (const line of r.stdout.split('\n')) assert.ok(displayWidth(line) <= 72, line);
  });

  it('no seed numbers and no "L0" in README, docs, the sources, or session and --gcf-delta output', async () => {
    const files = (folder: string, ext: string): string[] =>
      readdirSync(join(REPO_ROOT, folder), { recursive: true, encoding: 'utf8' })
        .filter((f) => f.endsWith(ext))
        .map((f) => join(folder, f));
    const texts = ['README.md', ...files('docs', '.md'), ...files('src', '.ts'), ...files('commands', '.ts')].map(
      (f) => [f, readFileSync(join(REPO_ROOT, f), 'utf8')] as const,
    );
    const calls = join(dir, 'calls3.jsonl');
    const out = [{ id: 1, title: 'a', state: 'open' }];
    writeFileSync(calls, [1, 2].map(() => JSON.stringify({ tool: 'list_issues', output: out })).join('\n'));
    const delta = await runCli(['session', calls, '--tokenizer', 'heuristic', '--gcf-delta']);
    assert.equal(delta.code, 0, delta.stderr);
    // `help proxy` prints what `proxy --help` does, and runs in-process (--help in a real process:
    // cli-conventions.test.ts).
    const help = await runCli(['help', 'proxy']);
    assert.equal(help.code, 0, help.stderr);
    assert.match(help.stdout, /^USAGE\n {2}\$ devboy proxy/m);
    const said = [...texts, ['session --gcf-delta', delta.stdout] as const, ['help proxy', help.stdout] as const].filter(([, text]) =>
      /\bseed[ -]?\d{3}|\bseeds?'s?\s|\bL0\b/i.test(text),
    );
    assert.deepEqual(
      said.map(([f]) => f),
      [],
    );
  });

  it('no words or paths an installed user cannot follow: no seed numbers, no L0, no relative docs/ paths', async () => {
    const calls = join(dir, 'calls2.jsonl');
    writeFileSync(calls, `${JSON.stringify({ tool: 'list_issues', output: [{ id: 1, title: 'a' }] })}\n`);
    const session = await runCli(['session', calls, '--tokenizer', 'heuristic']);
    const bench = await runCli(['benchmark', ...small, '--project', 'artsy__emission', '--details']);
    // `help X` prints what `X --help` does, in-process.
    const help = await runCli(['help', 'session']);
    assert.match(help.stdout, /^USAGE\n {2}\$ devboy session /m);
    for (const text of [session.stdout, bench.stdout, help.stdout]) {
      assert.doesNotMatch(text, /seed \d{3}|\bL0\b/);
      assert.doesNotMatch(text, /(?<![\w/])docs\/[\w./<>*-]+\.md/);
    }
    // The help names the installed copy of the docs, which exists.
    const benchHelp = await runCli(['help', 'benchmark']);
    const paths = [...benchHelp.stdout.matchAll(/(\/\S*\/docs\/[\w/-]+\.md)/g)].map((m) => m[1]!);
    assert.ok(paths.length > 0, benchHelp.stdout);
    for (const p of paths) assert.ok(existsSync(p) && p.startsWith(REPO_ROOT), p);
  });
});
