import { Flags } from '../src/cli/oclif.js';
import { DevboyCommand } from '../src/cli/base-command.js';
import { parseTokenizers, TOKENIZERS_HELP } from '../src/cli/tokenizer-flag.js';
import { stderrWidthOption } from '../src/cli/streams.js';
import { UsageError } from '../src/errors.js';
import { candidateFormats } from '../src/formats/info.js';
import { MAX_TIMER_SECONDS } from '../src/http/limits.js';
import { FORMAT_NAMES, type FormatName } from '../src/formats/types.js';
import { TOKENIZER_NAMES, type TokenizerName } from '../src/tokens/types.js';
import { PROXY_LEVELS, type ProxyLevel } from '../src/proxy/level.js';

export default class Proxy extends DevboyCommand {
  static override summary = 'Run an MCP server in front of another one: tool results re-encoded with fewer tokens, verified call by call.';

  static override description = `Serves an agent over MCP on standard input and output, as a client of the upstream MCP server
given after -- (a program it starts) or by --upstream-url (Streamable HTTP). Everything passes through;
a tools/call result whose text is a JSON object or array is re-encoded (--format; auto: the lossless
format with the fewest --tokenizer tokens) only when the new text decodes back to exactly the upstream's
value and has fewer tokens; anything else goes through byte for byte. A repeated result becomes a short
reference (dedup), and with --budget a long list comes in pages; the tool devboy_result hands back both.
Standard output carries only MCP messages; notes and, on exit, the summary go to standard error.
See docs/proxy.md.

Exit codes: 0 the agent ended the session; 1 the upstream failed (exited, crashed, hung, wrote junk) or
the ledger could not be written; 2 usage (bad flag, no upstream, a program that cannot be started).`;

  static override examples = [
    '<%= config.bin %> proxy -- npx -y @modelcontextprotocol/server-everything',
    '<%= config.bin %> proxy --log calls.jsonl --skip-tools read_file,edit_file -- npx -y @modelcontextprotocol/server-filesystem ~/src',
    'claude mcp add github -- <%= config.bin %> proxy --budget 4000 -- npx -y @modelcontextprotocol/server-github',
  ];

  // The upstream's command line follows `--` and is not devboy's to parse.
  static override strict = false;

  static override flags = {
    format: Flags.string({
      description: `encoding of re-encoded results; auto: the lossless one with the fewest --tokenizer tokens among ${candidateFormats().join(', ')}, per result (a baseline is used only when named)`,
      options: ['auto', ...FORMAT_NAMES],
      default: 'auto',
    }),
    tokenizer: Flags.string({
      description: 'tokenizer that decides "fewer tokens" and counts --budget',
      options: [...TOKENIZER_NAMES],
      default: 'o200k_base',
    }),
    tokenizers: Flags.string({ description: `also count every ledger figure under these: ${TOKENIZERS_HELP}` }),
    'skip-tools': Flags.string({
      description: 'tools whose results stay byte-exact: names or globs (* and ?), comma-separated',
      multiple: true,
    }),
    'only-tools': Flags.string({
      description: 'the only tools whose results may be rewritten: names or globs, comma-separated',
      multiple: true,
    }),
    budget: Flags.integer({
      description: 'a result list over this many --tokenizer tokens comes in pages (first page with the chunk index)',
      min: 1,
    }),
    level: Flags.string({
      description:
        'lower GitHub, GitLab and Jira lists to this detail level: lossy by choice, labelled in the result and the log (default: off)',
      options: [...PROXY_LEVELS],
    }),
    dedup: Flags.boolean({
      description: 'send a result equal to an earlier one as a short reference (--no-dedup: never)',
      allowNo: true,
      default: true,
    }),
    explainer: Flags.boolean({
      description: "teach the model a format once, with its first result in it (--no-explainer: don't)",
      allowNo: true,
      default: true,
    }),
    // Timers: past MAX_TIMER_SECONDS Node would fire at once.
    timeout: Flags.integer({ description: 'seconds the upstream has to answer a request', min: 1, max: MAX_TIMER_SECONDS, default: 60 }),
    'start-timeout': Flags.integer({
      description: 'seconds the upstream has to answer initialize (npx may download it first)',
      min: 1,
      max: MAX_TIMER_SECONDS,
      default: 120,
    }),
    'max-result-mb': Flags.integer({
      description:
        "results larger than this pass through unread (noted in the log); one under it is read on the proxy's one thread while other calls wait",
      min: 1,
      default: 4,
    }),
    log: Flags.string({ description: 'write the ledger here: one JSON line per tool call (replaced on start; devboy session reads it)' }),
    'upstream-url': Flags.string({ description: 'the upstream speaks Streamable HTTP at this URL (instead of a program after --)' }),
  };

  async run(): Promise<void> {
    const { flags, argv } = await this.parse(Proxy);
    const command = (argv as string[]).filter((a, i) => !(i === 0 && a === '--'));
    const url = flags['upstream-url'];
    if (url && command.length > 0) throw new UsageError('give the upstream either after -- or with --upstream-url, not both');
    if (!url && command.length === 0) throw new UsageError('no upstream: give its command after --, e.g. devboy proxy -- npx -y SERVER');
    const { assertTokenizersInstalled } = await import('../src/tokens/registry.js');
    const tokenizers = flags.tokenizers ? parseTokenizers(flags.tokenizers) : [];
    assertTokenizersInstalled([flags.tokenizer as TokenizerName, ...tokenizers]);
    const split = (values: string[] | undefined) =>
      (values ?? []).flatMap((v) =>
        v
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean),
      );
    const [{ runProxy }, { proxySummaryText }] = await Promise.all([import('../src/proxy/run.js'), import('../src/proxy/summary.js')]);
    const outcome = await runProxy({
      upstream: url ? { url } : { command: command[0]!, args: command.slice(1) },
      format: flags.format as FormatName | 'auto',
      tokenizer: flags.tokenizer as TokenizerName,
      tokenizers,
      skipTools: split(flags['skip-tools']),
      onlyTools: split(flags['only-tools']),
      budget: flags.budget ?? null,
      level: (flags.level as ProxyLevel | undefined) ?? null,
      dedup: flags.dedup,
      explainer: flags.explainer,
      timeoutMs: flags.timeout * 1000,
      startTimeoutMs: flags['start-timeout'] * 1000,
      maxResultMb: flags['max-result-mb'],
      ...(flags.log ? { log: flags.log } : {}),
      stdin: process.stdin,
      stdout: process.stdout,
      onNote: (line) => this.writeStderr(`devboy proxy: ${line}\n`),
    });
    this.writeStderr(`${proxySummaryText(outcome.summary, stderrWidthOption().width)}\n`);
    process.exitCode = outcome.exitCode;
  }
}
