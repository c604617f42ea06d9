import { Flags } from '../src/cli/oclif.js';
import { DevboyCommand } from '../src/cli/base-command.js';
import { inputFileArg, inputSource } from '../src/cli/input-arg.js';
import { FORMAT_NAMES, type FormatName } from '../src/formats/types.js';
import { readInput } from '../src/io/read-input.js';
import { isLedgerText, parseLedger } from '../src/proxy/ledger.js';
import { proxySummaryText, summarizeLedger } from '../src/proxy/summary.js';
import { parseTranscript, TRANSCRIPT_KINDS, type TranscriptKind } from '../src/transcript/load.js';
import { playTranscript } from '../src/transcript/playback.js';
import { transcriptReportText } from '../src/transcript/report-text.js';
import { DEFAULT_DEDUP, SAVINGS_BASELINES, type SavingsBaseline } from '../src/transcript/types.js';
import { TOKENIZER_NAMES, type TokenizerName } from '../src/tokens/types.js';
import { assertTokenizersInstalled } from '../src/tokens/registry.js';

export default class Session extends DevboyCommand {
  static override summary =
    'Play back an agent session transcript: what sending repeated outputs as references (dedup) and an encoder save across its tool calls.';

  static override description = `Reads a session (JSONL, one tool call per line; see docs/session.md) or an imported
transcript, plays it back, and reports what the model would receive for each call and the savings:
dedup (a repeated body becomes a one-line ref to the content-hash id it was first sent with),
encoder (--format over the calls sent in full) and combined, against --savings-baseline, counted
with --tokenizer. A ledger written by devboy proxy --log is summed as the proxy counted it (the
proxy's own exit summary, figure for figure); the playback flags do not apply to it. With --json the report is one JSON object; its *_pct fields are fractions (0.25 = 25%).

Exit codes: 0 ok; 1 bad session data (file:line:col); 2 usage.`;

  static override examples = [
    '<%= config.bin %> session calls.jsonl --format toon',
    '<%= config.bin %> session ~/.claude/projects/my-app/1234.jsonl --import claude-code --format gcf --json',
  ];

  static override args = {
    file: inputFileArg('session file, or - for standard input (the default when data is piped in)'),
  };

  static override flags = {
    format: Flags.string({
      description: 'encoding of the bodies sent in full',
      options: [...FORMAT_NAMES],
      default: 'json-compact',
      aliases: ['to'],
    }),
    tokenizer: Flags.string({
      description: 'tokenizer for every count',
      options: [...TOKENIZER_NAMES],
      default: 'o200k_base',
      aliases: ['tokenizers'],
    }),
    'savings-baseline': Flags.string({
      description: 'what savings are taken against',
      options: [...SAVINGS_BASELINES],
      default: 'json_compact',
    }),
    'min-bytes': Flags.integer({
      description: 'bodies smaller than this (canonical JSON, UTF-8 bytes) get no id and no ref',
      min: 0,
      default: DEFAULT_DEDUP.minBytes,
    }),
    'lru-size': Flags.integer({
      description: 'how many distinct recent bodies can be referred to',
      min: 1,
      default: DEFAULT_DEDUP.lruSize,
    }),
    import: Flags.string({
      description: 'session file format (default: detected)',
      options: ['auto', ...TRANSCRIPT_KINDS],
      default: 'auto',
    }),
    'gcf-delta': Flags.boolean({ description: 'also play back GCF generic delta sessions (keyed flat tables only) side by side' }),
    json: Flags.boolean({ description: 'print the report as JSON' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Session);
    assertTokenizersInstalled([flags.tokenizer as TokenizerName]);
    const input = await readInput(inputSource(args.file));
    if (isLedgerText(input.text)) {
      // A `devboy proxy --log` ledger: what the proxy sent is recorded, so it is summed, not played back.
      const { header, calls } = parseLedger(input.text, input.name);
      const summary = summarizeLedger(header, calls);
      await this.writeStdout(
        `${flags.json ? JSON.stringify({ file: input.name, session_format: 'proxy-ledger', ...summary }, null, 2) : proxySummaryText(summary)}\n`,
      );
      return;
    }
    const session = { ...parseTranscript(input.text, flags.import as TranscriptKind | 'auto', input.name), name: input.name };
    const report = await playTranscript(session.entries, {
      format: flags.format as FormatName,
      tokenizer: flags.tokenizer as TokenizerName,
      baseline: flags['savings-baseline'] as SavingsBaseline,
      minBytes: flags['min-bytes'],
      lruSize: flags['lru-size'],
      gcfDelta: flags['gcf-delta'],
      file: session.name,
    });
    const text = flags.json
      ? JSON.stringify({ file: session.name, session_format: session.kind, ...report }, null, 2)
      : transcriptReportText(report, { name: session.name, kind: session.kind });
    await this.writeStdout(`${text}\n`);
  }
}
