import { Args, Flags } from '../src/cli/oclif.js';
import { DevboyCommand } from '../src/cli/base-command.js';
import { widthOption } from '../src/cli/streams.js';

export default class Compare extends DevboyCommand {
  static override summary = 'Compare two saved benchmark results: what changed, and whether it regressed.';

  static override description = `Reads two saved results (schema devboy.benchmark/1: benchmark --json, --export-json or
devboy merge) and matches their rows by identity (provider, project, dataset, label, level, format,
tokenizer). Prints the verdict, a summary per format and level (tokens under each tokenizer, pages,
round trips, rows added or removed), then every row that regressed or improved, once, with its
tokenizers side by side, then timing with each cell's timed runs (flagged only when the cells
holding most of the time were timed at least 3 times in both runs and moved outside both runs'
spreads; never fails).
Only BASE rows inside HEAD's scope are compared, so a narrowed HEAD can be checked against a full BASE.
--markdown is for $GITHUB_STEP_SUMMARY and PR comments (with a Mermaid chart; kept under GitHub's
65,536-character comment limit); --json is schema devboy.compare/1. --comment posts the Markdown
report as one pull-request comment (GitHub Actions) or merge-request note (GitLab CI) and updates it
on later runs; --comment-on regression posts only when the gate fails. CI use: docs/ci.md.

Exit codes: 0 no regression; 1 a token count grew more than --max-regression, a row stopped
round-tripping or a BASE row is missing from HEAD (or a file is not a valid result: the line names the
file and the field); 2 usage; with --comment, 3 (passed) or 4 (failed) when the report is complete
but the comment could not be posted (a warning line names the API's answer).`;

  static override examples = [
    '<%= config.bin %> compare results/baseline.json run.json',
    '<%= config.bin %> compare base.json head.json --markdown >> "$GITHUB_STEP_SUMMARY"',
    '<%= config.bin %> compare base.json head.json --json --max-regression 1',
    'GITHUB_TOKEN=... <%= config.bin %> compare results/baseline.json head.json --markdown --comment >> "$GITHUB_STEP_SUMMARY"',
  ];

  static override args = {
    base: Args.string({ description: 'the result to compare against (a committed baseline, the base branch)', required: true }),
    head: Args.string({ description: 'the result to judge (this change)', required: true }),
  };

  static override flags = {
    json: Flags.boolean({ description: 'print the comparison as JSON (schema devboy.compare/1)', exclusive: ['markdown'] }),
    markdown: Flags.boolean({ description: 'print Markdown (CI job summaries, PR comments)' }),
    'max-regression': Flags.string({ description: 'largest tolerated token growth per row, in percent', default: '0.5' }),
    comment: Flags.boolean({
      description:
        'also post the Markdown report as one pull-request comment (GitHub Actions: GITHUB_TOKEN) or merge-request note (GitLab CI: GITLAB_TOKEN), updated on every run',
    }),
    'comment-on': Flags.string({
      description: 'with --comment: always, or only when the gate fails (an earlier comment is still updated)',
      options: ['always', 'regression'],
      default: 'always',
    }),
    token: Flags.string({
      description: 'with --comment: the API token (prefer GITHUB_TOKEN or GITLAB_TOKEN: flags show in the process list)',
    }),
    'full-report': Flags.string({
      description: 'where the full comparison is, named when the Markdown report is cut to fit a comment (default: the CI run)',
    }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Compare);
    const maxRegression = Number(flags['max-regression']);
    if (!Number.isFinite(maxRegression) || maxRegression < 0)
      this.error(`--max-regression must be a non-negative number of percent, got '${flags['max-regression']}'`, { exit: 2 });
    const [{ readBenchmarkResult }, { compareResults }, { COMPARE_EXPORTERS }] = await Promise.all([
      import('../src/benchmark/read-result.js'),
      import('../src/compare/compare.js'),
      import('../src/report/index.js'),
    ]);
    // Where a comment would go is checked before any work: a missing token should not wait for two files.
    const target = flags.comment ? (await import('../src/comment/target.js')).commentTarget(process.env, flags.token) : undefined;
    const base = await readBenchmarkResult(args.base);
    const head = await readBenchmarkResult(args.head);
    const comparison = compareResults(base, head, { maxRegression: maxRegression / 100 });
    const exporter = COMPARE_EXPORTERS[flags.json ? 'json' : flags.markdown ? 'markdown' : 'table'];
    const fullReport = flags['full-report'] ?? target?.runUrl;
    const options = { ...widthOption(), ...(fullReport ? { fullReport } : {}) };
    await this.writeStdout(exporter.render(comparison, options));
    // Markdown and JSON usually go to a file or a job summary; the verdict still reaches the log.
    if (flags.json || flags.markdown) {
      const { compareView } = await import('../src/report/compare-view.js');
      this.writeStderr(`devboy compare: ${compareView(comparison).verdict}\n`);
    }
    if (target) {
      const { postComment, CommentNotPosted, EXIT_NOT_POSTED } = await import('../src/comment/post.js');
      const where = target.host === 'github' ? `pull request #${target.number}` : `merge request !${target.iid}`;
      try {
        const posted = await postComment(target, COMPARE_EXPORTERS.markdown.render(comparison, options), {
          on: flags['comment-on'] as 'always' | 'regression',
          passed: comparison.passed,
        });
        this.writeStderr(
          posted.action === 'skipped'
            ? `devboy compare: no comment on ${where} (passed, --comment-on regression)\n`
            : `devboy compare: ${posted.action} the comment on ${where}\n`,
        );
      } catch (err) {
        if (!(err instanceof CommentNotPosted)) throw err;
        // Not a regression and not a usage error: the report is whole and the verdict stands.
        const exit = comparison.passed ? EXIT_NOT_POSTED.passed : EXIT_NOT_POSTED.failed;
        this.writeStderr(
          `devboy compare: warning: the comment was not posted: ${err.oneLine()}; the report is complete and the verdict stands: ${comparison.passed ? 'passed' : 'failed'} (exit ${exit})\n`,
        );
        process.exitCode = exit;
        return;
      }
    }
    if (!comparison.passed) process.exitCode = 1;
  }
}
