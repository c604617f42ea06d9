import { Args } from '../src/cli/oclif.js';
import { DevboyCommand } from '../src/cli/base-command.js';
import { bashCompletion, type CompletionCommand } from '../src/cli/completion.js';

export default class Autocomplete extends DevboyCommand {
  static override summary = 'Print a shell completion script for bash or zsh.';

  static override description = `Completes commands, flags, the values of flags with a fixed set
(--to, --provider, ...), and file names elsewhere. Install it once:

bash: devboy autocomplete bash \\
        > ~/.local/share/bash-completion/completions/devboy
      (or add to ~/.bashrc: eval "$(devboy autocomplete bash)")
zsh:  devboy autocomplete zsh > ~/.devboy-completion.zsh
      and add to ~/.zshrc: source ~/.devboy-completion.zsh

The script holds all it completes, so Tab never starts devboy.
Write it again after an upgrade.`;

  static override examples = ['<%= config.bin %> autocomplete bash > ~/.local/share/bash-completion/completions/devboy'];

  static override args = {
    shell: Args.string({ description: 'the shell', options: ['bash', 'zsh'], default: 'bash', ignoreStdin: true }),
  };

  async run(): Promise<void> {
    const { args } = await this.parse(Autocomplete);
    const commands: CompletionCommand[] = this.config.commands
      .filter((c) => !c.hidden)
      .map((c) => ({
        id: c.id.replace(/:/g, ' '),
        flags: Object.values(c.flags)
          .filter((f) => !f.hidden)
          .map((f) => ({
            name: f.name,
            ...(f.char ? { char: f.char } : {}),
            ...(f.type === 'option' && f.options ? { options: [...f.options] } : {}),
          })),
      }));
    const script = bashCompletion(this.config.bin, commands);
    await this.writeStdout(args.shell === 'zsh' ? `autoload -U +X bashcompinit && bashcompinit\n${script}` : script);
  }
}
