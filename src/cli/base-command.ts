import { Command, Errors } from './oclif.js';
import { DevboyError, EXIT_DATA, EXIT_USAGE, flatten } from '../errors.js';
import { removeTempFilesOnInterrupt } from './interrupt-cleanup.js';
import { commandStreams } from './streams.js';
import { closest, respellArgv, type FlagShape } from './spelling.js';

/**
 * Every devboy command reports failure the same way: one line on stderr, exit 2 for usage
 * and 1 for data or network errors, never a stack trace (set DEVBOY_DEBUG=1 to see one).
 */
export abstract class DevboyCommand extends Command {
  protected override async init(): Promise<void> {
    await super.init();
    removeTempFilesOnInterrupt();
    // `--to json_compact`: the allowed spelling, said once, before oclif would refuse it.
    const { argv, notes } = respellArgv(this.argv, this.flagShapes());
    this.argv = argv;
    for (const n of notes) this.writeStderr(`devboy ${this.id ?? ''}: ${n}\n`);
  }

  /**
   * The command's flags, each named by its key: oclif writes `name` into a definition only when it
   * parses, and init runs before that (a first run would find no flag by its name).
   */
  private flagShapes(): Record<string, FlagShape> {
    const flags = (this.constructor as unknown as { flags?: Record<string, FlagShape> }).flags ?? {};
    return Object.fromEntries(Object.entries(flags).map(([name, f]) => [name, { ...f, name }]));
  }

  protected override async catch(err: Error & { oclif?: { exit?: number } }): Promise<void> {
    if (err instanceof Errors.ExitError) throw err;
    const { message, exitCode } = describeFailure(err, this.flagShapes(), this.id ?? '');
    if (process.env.DEVBOY_DEBUG) this.writeStderr(`${err.stack ?? ''}\n`);
    this.writeStderr(`devboy ${this.id ?? ''}: ${message}\n`.replace(/^devboy : /, 'devboy: '));
    process.exitCode = exitCode;
  }

  /** Write to stdout, tolerating a reader that went away (`devboy ... | head`). */
  protected async writeStdout(text: string): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      commandStreams().stdout.write(text, (err) => {
        if (!err || (err as NodeJS.ErrnoException).code === 'EPIPE') resolve();
        else reject(err);
      });
    });
  }

  /** Notes, verdicts and errors: for the person, never mixed into the data on stdout. */
  protected writeStderr(text: string): void {
    commandStreams().stderr.write(text);
  }
}

export function describeFailure(
  err: Error & { oclif?: { exit?: number } },
  flags: Record<string, FlagShape> = {},
  command = '',
): { message: string; exitCode: number } {
  if (err instanceof DevboyError) return { message: err.oneLine(), exitCode: err.exitCode };
  const unknown = /^Nonexistent flags?: (\S+?)(?:,|$|\n)/.exec(err.message);
  if (unknown) {
    const word = unknown[1]!;
    const names = Object.values(flags).flatMap((f) => [f.name, ...(f.aliases ?? [])]);
    const guess = word.startsWith('--') ? closest(word.slice(2), names) : undefined;
    return {
      message: guess
        ? `unknown flag ${flatten(word)}; did you mean --${guess}?`
        : `unknown flag ${flatten(word)} (devboy help${command ? ` ${command}` : ''} lists the flags)`,
      exitCode: EXIT_USAGE,
    };
  }
  const option = /^Expected --([\w-]+)=([\s\S]*) to be one of: (.*)$/.exec(err.message.split('\n')[0] ?? '');
  if (option) {
    const allowed = option[3]!.split(', ');
    const guess = closest(option[2]!, allowed);
    return {
      message: `--${option[1]}: unknown value '${flatten(option[2]!)}'${guess ? `; did you mean ${guess}?` : ''} (one of: ${allowed.join(', ')})`,
      exitCode: EXIT_USAGE,
    };
  }
  const oclifExit = err.oclif?.exit;
  if (typeof oclifExit === 'number' && oclifExit !== 0) {
    // Parser errors: drop oclif's "See more help" footer, keep the rest on one line.
    const lines = err.message.split('\n').filter((l) => !/^\s*See more help with/.test(l));
    const message = flatten(
      lines
        .join('\n')
        .replace(/^Error:\s*/, '')
        .replace(/^The following errors? occurred:\s*/, ''),
    ).replace(/:\s+(\S)/, ': $1');
    return { message, exitCode: oclifExit === 1 ? EXIT_DATA : EXIT_USAGE };
  }
  return { message: flatten(err.message || String(err)), exitCode: EXIT_DATA };
}
