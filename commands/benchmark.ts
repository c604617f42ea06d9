import { Flags } from '../src/cli/oclif.js';
import { setFlagsFromString } from 'node:v8';
import { DevboyCommand } from '../src/cli/base-command.js';
import { connectionFlags, connectionOptions } from '../src/cli/connection-flags.js';
import { measureFlags } from '../src/cli/measure-flags.js';
import { parseList } from '../src/cli/list-flag.js';
import { refuseFlagsWithList } from '../src/cli/corpus-list-flags.js';
import { parseTokenizers } from '../src/cli/tokenizer-flag.js';
import { ProgressBar } from '../src/cli/progress.js';
import { candidateFormats } from '../src/formats/info.js';
import { stdoutIsTerminal, widthOption } from '../src/cli/streams.js';
import { FORMAT_NAMES } from '../src/formats/types.js';
import { baselineFormatOf, SAVINGS_BASELINES, type MeasuredBaseline } from '../src/metadata/format-metadata.js';
import { DATASET_KINDS, type ProviderName } from '../src/model/index.js';
import { PROVIDER_NAMES } from '../src/providers/registry.js';
import type { SourceRequest } from '../src/benchmark/source.js';
import type { BenchmarkRequest } from '../src/cli/benchmark-and-report.js';
import type { ExporterName } from '../src/report/index.js';
import { assertTokenizersInstalled } from '../src/tokens/registry.js';
import { LEVELS } from '../src/trim/levels.js';

export default class Benchmark extends DevboyCommand {
  static override summary = 'Measure tokens, bytes, pages, speed and round trips of every dataset, level and format.';

  static override description = `Reads issues, pull/merge requests, diffs, comments and discussions (replayed from the corpus
embedded in devboy by default, or from --corpus DIR, narrowed by --provider and --project; live with
--owner/--repo (GitHub, or GitLab with --provider gitlab) or --provider jira --project KEY), and for each dataset, level (raw, full, standard, minimal) and format (json,
json-compact, toon, stc, gcf; --formats all adds the baselines yaml, csv, markdown-table, markdown-kv and xml,
with the share and places of the values each loses) reports tokens under each tokenizer, bytes, pages at --budget,
encode/decode time (median of adaptive timed runs: a warm-up, then up to --runs within
--time-budget), whether it round-trips, and the savings against a named
baseline. With several --tokenizers (all: every model family, docs/tokenizers.md) it adds the winner
by tokenizer family per dataset kind and level, and for every format that needs a prompt to teach it
(docs/formats/*-prompt.md, or devboy.toml [format_explainers]) the break-even: the tool results after
which its saving repays that prompt. Prints a table; --json prints the result (schema devboy.benchmark/1, docs/benchmark-schema.md)
and --markdown a report for CI summaries, with Mermaid charts. --export-json, --export-markdown and
--export-csv write those reports to files (any combination, atomically) while the terminal keeps its
table. With --baseline, compares with a saved result as \`devboy compare\` does, prints that report
too and exits 1 on any regression (token growth beyond --max-regression, lost round trip, missing
row). CI use: docs/ci.md.

Exit codes: 0 ok; 1 regression, bad data or provider failure; 2 usage.`;

  static override examples = [
    '<%= config.bin %> benchmark',
    '<%= config.bin %> benchmark --export-json run.json --export-markdown report.md --export-csv rows.csv',
    '<%= config.bin %> benchmark --baseline results/baseline.json --markdown >> "$GITHUB_STEP_SUMMARY"',
    '<%= config.bin %> benchmark --corpus my-recordings --project acme__widgets',
    '<%= config.bin %> benchmark --tokenizers all --details',
    'GITHUB_TOKEN=... <%= config.bin %> benchmark --provider github --owner rust-lang --repo rust --limit 30',
  ];

  static override flags = {
    corpus: Flags.string({
      description: 'replay this corpus folder instead of the embedded one (default: $DEVBOY_CORPUS)',
      env: 'DEVBOY_CORPUS',
    }),
    provider: Flags.string({
      char: 'p',
      description: 'read this provider live (with --owner and --repo, or Jira --project/--jql), else narrow the corpus to it',
      options: [...PROVIDER_NAMES],
    }),
    owner: Flags.string({ description: 'GitHub owner / GitLab namespace' }),
    repo: Flags.string({ description: 'repository / GitLab project' }),
    project: Flags.string({ description: 'Jira project key, or a corpus project folder (owner__repo)' }),
    jql: Flags.string({ description: 'Jira search for live runs' }),
    limit: Flags.integer({ char: 'n', description: 'live: issues and pull/merge requests to fetch', min: 1, default: 30 }),
    'live-details': Flags.integer({
      description: 'live: pull/merge requests (Jira: issues) whose diffs, comments and discussions are fetched',
      min: 0,
      default: 3,
    }),
    ...connectionFlags,
    dataset: Flags.string({ description: `dataset kinds, comma-separated (${DATASET_KINDS.join(',')})`, default: DATASET_KINDS.join(',') }),
    levels: Flags.string({ description: `levels, comma-separated (${LEVELS.join(',')})`, default: LEVELS.join(',') }),
    formats: Flags.string({
      description: `formats, comma-separated (${FORMAT_NAMES.join(',')}), or all; the baselines yaml, csv, markdown-table, markdown-kv and xml are measured only when named (or all) or given as --savings-baseline`,
      default: candidateFormats().join(','),
      aliases: ['format'],
    }),
    ...measureFlags,
    'time-budget': Flags.string({
      description: 'milliseconds of timed runs per encode and decode before the runs stop (0: always --runs runs)',
      default: '1',
    }),
    session: Flags.string({
      description: 'an agent session for a real dedup column: devboy JSONL or a transcript (played back), or a proxy --log ledger (summed)',
    }),
    config: Flags.string({
      description:
        'devboy.toml whose [format_explainers] replace the prompts that teach each format (default: ./devboy.toml if present; docs/tokenizers.md)',
    }),
    json: Flags.boolean({
      description: 'print the result as JSON (schema devboy.benchmark/1) instead of the table',
      exclusive: ['markdown'],
    }),
    markdown: Flags.boolean({ description: 'print a Markdown report (CI job summaries, PR comments) instead of the table' }),
    list: Flags.boolean({
      description:
        'list the providers, projects and datasets the corpus holds (what a run would measure, narrowed by --provider, --project and --dataset; --json for JSON), and stop',
    }),
    details: Flags.boolean({
      description:
        'the table with every dataset, the first response at the budget, the heuristic bias and every lossy cell (the default is a one-screen summary)',
    }),
    output: Flags.string({ char: 'o', description: 'also write the JSON result to this file (atomically); the same as --export-json' }),
    'export-json': Flags.string({ description: 'write the result as JSON (devboy.benchmark/1) to this file, atomically' }),
    'export-markdown': Flags.string({ description: 'write the Markdown report to this file, atomically' }),
    'export-csv': Flags.string({
      description: 'write one CSV line per row (RFC 4180; columns in docs/benchmark-schema.md) to this file, atomically',
    }),
    baseline: Flags.string({ description: 'compare with this saved result (as devboy compare does); exit 1 on regressions' }),
    'allow-skipped': Flags.boolean({
      description: 'exit 0 even when corpus recordings could not be read (they are still listed)',
    }),
    'max-regression': Flags.string({ description: 'largest tolerated token growth per row, in percent', default: '0.5' }),
  };

  async run(): Promise<void> {
    const { flags, metadata } = await this.parse(Benchmark);
    if (flags.list) {
      const given = Object.keys(flags).filter((name) => !metadata.flags[name]?.setFromDefault);
      refuseFlagsWithList(given, Benchmark.flags);
      const { corpusListing } = await import('../src/cli/corpus-listing.js');
      const kinds = parseList('dataset', flags.dataset, DATASET_KINDS);
      const { corpus, project } = flags;
      await this.writeStdout(
        await corpusListing({
          corpus,
          provider: flags.provider as ProviderName | undefined,
          project,
          kinds,
          json: Boolean(flags.json),
          ...widthOption(),
        }),
      );
      return;
    }
    const maxRegression = Number(flags['max-regression']);
    const timeBudgetMs = Number(flags['time-budget']);
    if (!Number.isFinite(timeBudgetMs) || timeBudgetMs < 0)
      this.error(`--time-budget must be a non-negative number of milliseconds, got '${flags['time-budget']}'`, { exit: 2 });
    if (!Number.isFinite(maxRegression) || maxRegression < 0)
      this.error(`--max-regression must be a non-negative number of percent, got '${flags['max-regression']}'`, { exit: 2 });
    const { checkSourceFlags } = await import('../src/benchmark/source.js');
    const source = sourceFlags(flags);
    checkSourceFlags(source, { host: flags.host, token: flags.token, email: flags.email, jiraApi: flags['jira-api'] });
    const kinds = parseList('dataset', flags.dataset, DATASET_KINDS);
    const levels = parseList('levels', flags.levels, LEVELS);
    const savingsBaseline = flags['savings-baseline'] as MeasuredBaseline;
    const formats = parseFormats(flags.formats, savingsBaseline);
    const tokenizers = parseTokenizers(flags.tokenizers);
    assertTokenizersInstalled(tokenizers);
    if (flags.session && !(SAVINGS_BASELINES as string[]).includes(savingsBaseline))
      this.error(
        `--session takes its savings against JSON (${SAVINGS_BASELINES.join(' or ')}), not --savings-baseline ${savingsBaseline}`,
        {
          exit: 2,
        },
      );

    const { benchmarkAndReport } = await import('../src/cli/benchmark-and-report.js');
    // V8 lets the heap grow to as much as four times what survived its last full collection. A run
    // keeps little alive (its rows) and makes much short-lived garbage (texts, decoded values): at
    // two and a half times, its peak memory follows what it keeps, for some more collector time
    // (`npm run bench -- --only matrix`: peak RSS on the corpus and on ten times the corpus).
    setFlagsFromString('--heap-growing-percent=150');
    const outcome = await benchmarkAndReport({
      source: { ...source, limit: flags.limit, live: { details: flags['live-details'], ...connectionOptions(flags) } },
      measure: { kinds, levels, formats, tokenizers, budget: flags.budget, runs: flags.runs, timeBudgetMs, savingsBaseline },
      config: flags.config,
      session: flags.session,
      baseline: flags.baseline,
      maxRegression: maxRegression / 100,
      exports: exportFlags(flags),
      print: flags.json ? 'json' : flags.markdown ? 'markdown' : 'table',
      render: { color: stdoutIsTerminal() && !process.env.NO_COLOR, details: flags.details, ...widthOption() },
      allowSkipped: flags['allow-skipped'],
      progress: new ProgressBar(),
    });
    for (const piece of outcome.stdout) await this.writeStdout(piece);
    for (const note of outcome.stderr) this.writeStderr(note);
    if (outcome.exitCode !== 0) process.exitCode = outcome.exitCode;
  }
}

/** The source flags given, for checkSourceFlags and the data's request. */
function sourceFlags(flags: {
  corpus?: string | undefined;
  provider?: string | undefined;
  owner?: string | undefined;
  repo?: string | undefined;
  project?: string | undefined;
  jql?: string | undefined;
}): SourceRequest {
  return {
    ...(flags.corpus ? { corpus: flags.corpus } : {}),
    ...(flags.provider ? { provider: flags.provider as ProviderName } : {}),
    ...(flags.owner ? { owner: flags.owner } : {}),
    ...(flags.repo ? { repo: flags.repo } : {}),
    ...(flags.project ? { project: flags.project } : {}),
    ...(flags.jql ? { jql: flags.jql } : {}),
  };
}

/** The files the run writes, one per export flag given (`-o` is `--export-json`). */
function exportFlags(flags: {
  output?: string | undefined;
  'export-json'?: string | undefined;
  'export-markdown'?: string | undefined;
  'export-csv'?: string | undefined;
}): BenchmarkRequest['exports'] {
  const exports: [string | undefined, ExporterName][] = [
    [flags.output, 'json'],
    [flags['export-json'], 'json'],
    [flags['export-markdown'], 'markdown'],
    [flags['export-csv'], 'csv'],
  ];
  return exports.flatMap(([file, exporter]) => (file ? [{ file, exporter }] : []));
}

/**
 * `--formats`: a list, or `all`. A savings baseline that is a team's current format (yaml, csv, ...)
 * is a row too: a user who says they use YAML sees what YAML costs and loses beside the formats that
 * could replace it. (The JSON baselines are measured for every row's savings and listed only when asked.)
 */
function parseFormats(value: string, savingsBaseline: MeasuredBaseline): (typeof FORMAT_NAMES)[number][] {
  const formats = value.trim() === 'all' ? [...FORMAT_NAMES] : parseList('formats', value, FORMAT_NAMES);
  if ((SAVINGS_BASELINES as string[]).includes(savingsBaseline)) return formats;
  const own = baselineFormatOf(savingsBaseline);
  return formats.includes(own) ? formats : [...formats, own];
}
