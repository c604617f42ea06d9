import { Flags } from '../src/cli/oclif.js';
import { DevboyCommand } from '../src/cli/base-command.js';
import { inputFileArg, inputSource } from '../src/cli/input-arg.js';
import { stderrWidthOption } from '../src/cli/streams.js';
import { convert } from '../src/convert/convert.js';
import { INPUT_FORMAT_NAMES, type InputFormatName } from '../src/formats/detect.js';
import { FORMAT_NAMES, type FormatName } from '../src/formats/types.js';
import { readInput } from '../src/io/read-input.js';
import { TOKENIZER_NAMES, type TokenizerName } from '../src/tokens/types.js';

const TOON_DELIMITERS = { comma: ',', tab: '\t', pipe: '|' } as const;

export default class Convert extends DevboyCommand {
  static override summary = 'Convert between JSON, TOON, STC and GCF (and YAML, CSV, Markdown, XML), and prove the round trip.';

  static override description = `Reads FILE (or standard input for "-", or when data is piped in), decodes it, and encodes it as --to.
The input format comes from --from, else the file extension, else the content.
NDJSON input (one JSON value per line) becomes an array.
--stream (GCF only) writes rows as they arrive instead of reading the whole input first.

Exit codes: 0 ok; 1 bad data or a failed --verify; 2 usage (unknown format, missing argument, no such file).`;

  static override examples = [
    '<%= config.bin %> convert issues.json --to toon',
    '<%= config.bin %> convert issues.json --to stc --verify --stats -o issues.stc',
    'cat rows.ndjson | <%= config.bin %> convert - --from ndjson --to gcf',
    'tail -f events.ndjson | <%= config.bin %> convert - --to gcf --stream',
  ];

  static override args = {
    file: inputFileArg('input file, or - for standard input (the default when data is piped in)'),
  };

  static override flags = {
    to: Flags.string({
      char: 't',
      description: 'output format; auto: the lossless format with the fewest --tokenizer tokens for this input',
      options: [...FORMAT_NAMES, 'auto'],
      required: true,
      aliases: ['format'],
    }),
    from: Flags.string({
      char: 'f',
      description: 'input format (default: from the extension, then the content)',
      options: [...INPUT_FORMAT_NAMES],
    }),
    output: Flags.string({ char: 'o', description: 'write to this file (atomically) instead of standard output' }),
    verify: Flags.boolean({ description: 'decode the output again; exit 1 unless it equals the input (values and key order)' }),
    stats: Flags.boolean({ description: 'print bytes and tokens of input and output, and the saving, to stderr' }),
    tokenizer: Flags.string({
      description: 'tokenizer for --stats and --to auto',
      options: [...TOKENIZER_NAMES],
      default: 'o200k_base',
      aliases: ['tokenizers'],
    }),
    'toon-delimiter': Flags.string({ description: 'TOON field delimiter', options: Object.keys(TOON_DELIMITERS), default: 'comma' }),
    'toon-indent': Flags.integer({ description: 'TOON spaces per indentation level', min: 1, max: 8, default: 2 }),
    stream: Flags.boolean({ description: 'encode NDJSON or JSON-array rows as they arrive (GCF only: [?] counts, summary trailer)' }),
  };

  async run(): Promise<void> {
    const { args, flags } = await this.parse(Convert);
    const source = inputSource(args.file);
    // A missing family's install command comes first, not after reading a large input.
    if (flags.stats || flags.to === 'auto') {
      // The tokenizer registry loads only when a count is asked for (start-up of a plain convert).
      const { assertTokenizersInstalled } = await import('../src/tokens/registry.js');
      assertTokenizersInstalled([flags.tokenizer as TokenizerName]);
    }
    if (flags.stream) {
      // Only --stream needs the streaming encoder (and the GCF library it loads).
      const { streamConvert } = await import('../src/stream/stream-convert.js');
      await streamConvert({
        source,
        to: flags.to as FormatName,
        from: flags.from,
        output: flags.output,
        verify: flags.verify,
        stats: flags.stats,
      });
      return;
    }
    const input = await readInput(source);
    const result = await convert({
      input,
      to: flags.to as FormatName | 'auto',
      tokenizer: flags.tokenizer as TokenizerName,
      ...(flags.from ? { from: flags.from as InputFormatName } : {}),
      formatOptions: {
        toon: { delimiter: TOON_DELIMITERS[flags['toon-delimiter'] as keyof typeof TOON_DELIMITERS], indent: flags['toon-indent'] },
      },
      verify: flags.verify,
      ...(flags.stats ? { stats: flags.tokenizer as TokenizerName } : {}),
    });
    const text = result.output.endsWith('\n') ? result.output : `${result.output}\n`;
    // What only -o and --stats need loads when they are given: start-up is most of a small convert.
    if (flags.output) await (await import('../src/io/atomic-write.js')).writeFileAtomic(flags.output, text);
    else await this.writeStdout(text);
    if (result.auto)
      this.writeStderr(
        `${(await import('../src/convert/stats-text.js')).autoChoiceText(result.to, result.auto, stderrWidthOption().width)}\n`,
      );
    if (result.stats)
      this.writeStderr(`${(await import('../src/convert/stats-text.js')).formatConvertStats(result.stats, stderrWidthOption().width)}\n`);
    if (result.verification?.lossless) this.writeStderr(`verified: ${result.to} decodes to the same value (values and key order)\n`);
  }
}
