import { Args, Flags } from '../src/cli/oclif.js';
import { DevboyCommand } from '../src/cli/base-command.js';
import { writeFileAtomic } from '../src/io/atomic-write.js';
import { stderrWidthOption, stdoutIsTerminal } from '../src/cli/streams.js';
import { UsageError } from '../src/errors.js';

export default class Merge extends DevboyCommand {
  static override summary = 'Merge benchmark results of one split run (CI matrix jobs) into one result.';

  static override description = `Reads saved results (schema devboy.benchmark/1), one per job of a CI matrix that split a
benchmark by provider, project or repository, and writes one result with every dataset and row, as
one run would have (every section computed from rows, such as the heuristic's bias, the method
contrast, winners and break-even, computed again over all rows) and "merged_from" naming each
input's file and source. Refuses, with one line, results of different devboy versions, tokenizers,
format implementations or settings, a mix of live and recorded runs, and a dataset measured twice.
Pass the result to devboy compare. CI use: docs/ci.md.

Exit codes: 0 ok; 1 a file is not a valid result (the line names the file and the field) or the results
cannot be merged; 2 usage.`;

  static override examples = [
    '<%= config.bin %> merge devboy-github.json devboy-gitlab.json devboy-jira.json -o devboy-head.json',
    '<%= config.bin %> merge parts/*.json -o all.json && <%= config.bin %> compare results/baseline.json all.json',
  ];

  static override strict = false;

  static override args = {
    files: Args.string({
      description: 'result files (benchmark --export-json), in the order their datasets should appear',
      required: true,
    }),
  };

  static override flags = {
    output: Flags.string({
      char: 'o',
      description:
        'write the merged result to this file (atomically; missing folders are made) instead of standard output (not a terminal)',
    }),
  };

  async run(): Promise<void> {
    const { argv, flags } = await this.parse(Merge);
    // A merged corpus run is megabytes of JSON: on a terminal it is noise, and nobody reads it there.
    if (!flags.output && stdoutIsTerminal())
      throw new UsageError('the merged result is JSON for machines: write it with -o FILE, or pipe it (devboy merge FILES > merged.json)');
    const [{ readBenchmarkResult }, { mergeResults }, { EXPORTERS }] = await Promise.all([
      import('../src/benchmark/read-result.js'),
      import('../src/merge/merge.js'),
      import('../src/report/index.js'),
    ]);
    const parts = [];
    for (const file of argv as string[]) parts.push(await readBenchmarkResult(file));
    const merged = mergeResults(parts);
    const text = EXPORTERS.json.render({ result: merged });
    if (flags.output) await writeFileAtomic(flags.output, text, { createFolders: true });
    else await this.writeStdout(text);
    const { DEFAULT_WIDTH, foldLine } = await import('../src/text/fold.js');
    const said = `devboy merge: ${parts.length} results, ${merged.datasets.length} datasets, ${merged.rows.length} rows${flags.output ? ` -> ${flags.output}` : ''}`;
    this.writeStderr(`${foldLine(said, stderrWidthOption().width ?? DEFAULT_WIDTH).join('\n')}\n`);
  }
}
