import { Args, helpModule } from '../src/cli/oclif.js';
import { DevboyCommand } from '../src/cli/base-command.js';

export default class HelpCommand extends DevboyCommand {
  static override summary = 'Show help for devboy, or for one of its commands.';

  static override examples = ['<%= config.bin %> help', '<%= config.bin %> help benchmark'];

  static override args = {
    command: Args.string({ description: 'the command to show help for', required: false, ignoreStdin: true }),
  };

  // `devboy help benchmark --json` shows benchmark's help rather than failing on the flag.
  static override strict = false;

  async run(): Promise<void> {
    const { argv } = await this.parse(HelpCommand);
    const Help = await helpModule().loadHelpClass(this.config);
    await new Help(this.config, this.config.pjson.oclif.helpOptions ?? {}).showHelp(argv as string[]);
  }
}
