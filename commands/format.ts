import { Flags } from '../src/cli/oclif.js';
import { DevboyCommand } from '../src/cli/base-command.js';
import { inputFileArg, inputSource } from '../src/cli/input-arg.js';
import { buildResponse } from '../src/budget/response-request.js';
import { responseJson, responseStatsLine } from '../src/budget/response-report.js';
import { leftOutNote } from '../src/providers/response.js';
import { loadPipelineConfig } from '../src/budget/strategies/config.js';
import { STRATEGY_NAMES, type StrategyName } from '../src/budget/strategies/strategy.js';
import { FORMAT_NAMES, type FormatName } from '../src/formats/types.js';
import { writeFileAtomic } from '../src/io/atomic-write.js';
import { readInput } from '../src/io/read-input.js';
import { SAVINGS_BASELINES, type SavingsBaseline } from '../src/metadata/format-metadata.js';
import { DATASET_KINDS, type DatasetKind } from '../src/model/index.js';
import { TOKENIZER_NAMES, type TokenizerName } from '../src/tokens/types.js';
import { assertTokenizersInstalled } from '../src/tokens/registry.js';

export default class Format extends DevboyCommand {
  static override summary = 'Fit a provider response into a token budget: trimmed, encoded, with a chunk index.';

  static override description = `Reads FILE (or standard input for "-", or when data is piped in): a GitHub, GitLab or Jira list response (a body, or a
recorded exchange as in the corpus), or a list of devboy items. Encodes the items as --to. When that is
over --budget tokens (counted with --tokenizer), the items are put in the strategy's reading order and
split into chunks; the chunk asked for (--chunk, default 1) keeps its most valuable items at full detail,
lowers the others to standard or minimal, cuts long texts at line boundaries, and ends with the chunk index.
The output is never over the budget under that tokenizer. --json prints {content, metadata, pipeline}.
The strategy comes from --strategy, else devboy.toml [format_pipeline.strategies] (--config, else ./devboy.toml),
else the built-in table, for --tool (default: the kind of the items). See docs/budget.md.

Exit codes: 0 ok; 1 bad data, or nothing fits in the budget; 2 usage (bad flag, no such file or chunk, bad config).`;

  static override examples = [
    '<%= config.bin %> format issues.json --budget 2000',
    '<%= config.bin %> format pr-files.json --budget 4000 --to json-compact --chunk 2 --json',
    'gh api repos/OWNER/REPO/pulls | <%= config.bin %> format - --budget 1000 --tool cloud__get_merge_requests',
  ];

  static override args = {
    file: inputFileArg('response file, or - for standard input (the default when data is piped in)'),
  };

  static override flags = {
    budget: Flags.integer({ char: 'b', description: 'most tokens the output may take (default: no limit)', min: 1 }),
    tokenizer: Flags.string({
      description: 'tokenizer the budget is counted with',
      options: [...TOKENIZER_NAMES],
      default: 'o200k_base',
      aliases: ['tokenizers'],
    }),
    to: Flags.string({ char: 't', description: 'output format', options: [...FORMAT_NAMES], default: 'toon', aliases: ['format'] }),
    strategy: Flags.string({ description: 'trimming strategy (default: resolved for --tool)', options: [...STRATEGY_NAMES] }),
    tool: Flags.string({ description: 'tool or dataset name to resolve the strategy for (default: the kind of the items)' }),
    type: Flags.string({ description: 'kind of items (default: detected)', options: [...DATASET_KINDS] }),
    chunk: Flags.integer({ description: 'which chunk to return (1-based)', min: 1, default: 1 }),
    config: Flags.string({ description: 'devboy.toml to read [format_pipeline.strategies] from (default: ./devboy.toml if present)' }),
    'savings-baseline': Flags.string({
      description: 'what the savings are taken against',
      options: [...SAVINGS_BASELINES],
      default: 'json_compact',
    }),
    output: Flags.string({ char: 'o', description: 'write to this file (atomically) instead of standard output' }),
    json: Flags.boolean({ description: 'print {content, metadata, pipeline} as JSON' }),
    stats: Flags.boolean({ description: 'print one line to stderr: items, detail, tokens, saving, strategy' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Format);
    assertTokenizersInstalled([flags.tokenizer as TokenizerName]);
    const config = flags.strategy ? { strategies: {} } : await loadPipelineConfig(flags.config);
    const input = await readInput(inputSource(args.file));
    const out = await buildResponse({
      input,
      to: flags.to as FormatName,
      tokenizer: flags.tokenizer as TokenizerName,
      ...(flags.budget !== undefined ? { budget: flags.budget } : {}),
      ...(flags.strategy ? { strategy: flags.strategy as StrategyName } : {}),
      ...(flags.tool ? { tool: flags.tool } : {}),
      overrides: config.strategies,
      ...(flags.type ? { kind: flags.type as DatasetKind } : {}),
      chunk: flags.chunk,
      hint: `Run again with \`--chunk N\` to fetch a specific chunk. You may not need all chunks.`,
      baseline: flags['savings-baseline'] as SavingsBaseline,
    });
    const text = flags.json ? responseJson(out) : out.content;
    const final = text.endsWith('\n') ? text : `${text}\n`;
    if (flags.output) await writeFileAtomic(flags.output, final);
    else await this.writeStdout(final);
    // Nothing left out silently: the other list the input held, and how to format it.
    if (out.leftOut) this.writeStderr(`devboy format: ${leftOutNote(out.leftOut, 'formats')}\n`);
    if (flags.stats) this.writeStderr(`${responseStatsLine(out, flags.budget)}\n`);
  }
}
