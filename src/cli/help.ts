import type { Interfaces } from '@oclif/core';
import { EXIT_USAGE } from '../errors.js';
import { notFoundMessage } from './not-found.js';
import { helpModule } from './oclif.js';
import { commandStreams } from './streams.js';

const { Help } = helpModule();

/**
 * oclif's help, written through devboy's streams (so `devboy help` runs in-process in tests), and
 * with devboy's one-line usage error for a subject that is no command (`devboy bench --help`),
 * which oclif would print in its own boxed style.
 */
export default class DevboyHelp extends Help {
  override async showHelp(argv: string[]): Promise<void> {
    try {
      await super.showHelp(argv);
    } catch (err) {
      const subject = /^Command (.+) not found\.$/.exec((err as Error).message)?.[1];
      if (subject === undefined) throw err;
      commandStreams().stderr.write(`devboy: ${notFoundMessage(subject.replace(/:/g, ' '), visibleCommandIds(this.config))}\n`);
      process.exitCode = EXIT_USAGE;
    }
  }

  protected override log(...args: string[]): void {
    const text = withInstalledDocs(`${args.join('\n')}\n`, this.config.root);
    if (this.opts.sendToStderr) commandStreams().stderr.write(text);
    else commandStreams().stdout.write(text, () => {});
  }
}

/**
 * Help names devboy's guides as `docs/NAME.md`, a path that means nothing where devboy is installed:
 * each becomes the path of that guide inside the installed package, which ships them.
 */
export function withInstalledDocs(text: string, root: string): string {
  return text.replace(/(?<![\w/.-])docs\/([\w./*<>-]*\.md)/g, (_, rest: string) => `${root.replace(/\/+$/, '')}/docs/${rest}`);
}

export function visibleCommandIds(config: Interfaces.Config): string[] {
  return config.commands.filter((c) => !c.hidden).map((c) => c.id.replace(/:/g, ' '));
}
