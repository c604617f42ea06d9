import { Command, Errors } from './oclif.js';
import { DevboyError, EXIT_DATA, EXIT_USAGE, flatten } from '../errors.js';
import { removeTempFilesOnInterrupt } from './interrupt-cleanup.js';
import { commandStreams } from './streams.js';

/**
 * Every devboy command reports failure the same way: one line on stderr, exit 2 for usage
 * and 1 for data or network errors, never a stack trace (set DEVBOY_DEBUG=1 to see one).
 */
export abstract class DevboyCommand extends Command {
  protected override async init(): Promise<void> {
    await super.init();
    removeTempFilesOnInterrupt();
  }

  protected override async catch(err: Error & { oclif?: { exit?: number } }): Promise<void> {
    if (err instanceof Errors.ExitError) throw err;
    const { message, exitCode } = describeFailure(err);
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

export function describeFailure(err: Error & { oclif?: { exit?: number } }): { message: string; exitCode: number } {
  if (err instanceof DevboyError) return { message: err.oneLine(), exitCode: err.exitCode };
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
