import { Flags } from '../src/cli/oclif.js';
import { DevboyCommand } from '../src/cli/base-command.js';
import { inputFileArg, inputSource } from '../src/cli/input-arg.js';
import { parseTokenizers } from '../src/cli/tokenizer-flag.js';
import { measureFlags } from '../src/cli/measure-flags.js';
import { widthOption } from '../src/cli/streams.js';
import { INPUT_FORMAT_NAMES, type InputFormatName } from '../src/formats/detect.js';
import type { MeasuredBaseline } from '../src/metadata/format-metadata.js';
import { DATASET_KINDS, type DatasetKind } from '../src/model/index.js';
import { FORMAT_NAMES } from '../src/formats/types.js';
import { assertTokenizersInstalled } from '../src/tokens/registry.js';

export default class Stats extends DevboyCommand {
  static override summary = 'Which format for this file: every format, level and tokenizer, and a recommendation.';

  static override description = `Reads FILE (or standard input for "-", or when data is piped in): a GitHub, GitLab or Jira response
(a body or a recorded exchange, as devboy format reads them), devboy items, any JSON or NDJSON, or a
TOON, STC or GCF file. Encodes it in every format and prints, per level and tokenizer, the tokens, the
change vs --savings-baseline (same level and tokenizer), the pages at --budget and whether it round-trips
(checked from the encoded bytes, page by page for formats with known losses); then the speed.
The input is the whole input as given (a recorded exchange with its envelope, a body with everything
in it), as convert --to auto reads it, so both choose the same format. --items measures the provider
items it holds instead, at every level (raw: as sent; full, standard, minimal: devboy's trim), and
says so. The first line is the recommendation: the lossless format with the fewest tokens under the
first real tokenizer of --tokenizers, for what was measured, and its runner-up.
--json prints the same as schema devboy.stats/1 (docs/stats.md).

Exit codes: 0 ok; 1 bad data (no format round-trips it, unreadable input); 2 usage.`;

  static override examples = [
    '<%= config.bin %> stats issues.json',
    'curl -s https://api.github.com/repos/O/R/issues | <%= config.bin %> stats',
    '<%= config.bin %> stats corpus/github/octokit__octokit.rb/pulls-closed.json --items --json | jq .recommendation',
  ];

  static override args = {
    file: inputFileArg('input file, or - for standard input (the default when data is piped in)'),
  };

  static override flags = {
    from: Flags.string({
      char: 'f',
      description: 'input format (default: from the extension, then the content)',
      options: [...INPUT_FORMAT_NAMES],
    }),
    items: Flags.boolean({
      description: 'measure the provider items the input holds (at every level), not the whole input as given',
    }),
    type: Flags.string({
      description: 'read the input as provider items of this kind (implies --items; default: detected)',
      options: [...DATASET_KINDS],
    }),
    ...measureFlags,
    config: Flags.string({
      description: 'devboy.toml whose [format_explainers] replace the prompts that teach each format (default: ./devboy.toml if present)',
    }),
    json: Flags.boolean({ description: 'print the result as JSON (schema devboy.stats/1)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Stats);
    const tokenizers = parseTokenizers(flags.tokenizers);
    assertTokenizersInstalled(tokenizers);
    const source = inputSource(args.file);
    const [{ readInput }, { computeStats }, { statsTable }, { loadPipelineConfig }, { loadExplainers }] = await Promise.all([
      import('../src/io/read-input.js'),
      import('../src/stats/stats.js'),
      import('../src/report/stats-table.js'),
      import('../src/budget/strategies/config.js'),
      import('../src/formats/explainers.js'),
    ]);
    const explainers = await loadExplainers(FORMAT_NAMES, (await loadPipelineConfig(flags.config)).explainers);
    const result = await computeStats({
      input: await readInput(source),
      ...(flags.from ? { from: flags.from as InputFormatName } : {}),
      items: flags.items,
      ...(flags.type ? { kind: flags.type as DatasetKind } : {}),
      tokenizers,
      budget: flags.budget,
      runs: flags.runs,
      savingsBaseline: flags['savings-baseline'] as MeasuredBaseline,
      explainers,
    });
    await this.writeStdout(flags.json ? `${JSON.stringify(result, null, 2)}\n` : statsTable(result, widthOption().width));
  }
}
