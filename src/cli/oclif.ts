import { createRequire } from 'node:module';
import type * as ArgsModule from '@oclif/core/args';
import type * as CommandModule from '@oclif/core/command';
import type * as ConfigModule from '@oclif/core/config';
import type * as ErrorsModule from '@oclif/core/errors';
import type * as ExecuteModule from '@oclif/core/execute';
import type * as FlagsModule from '@oclif/core/flags';
import type * as HelpModule from '@oclif/core/help';

interface OclifBundle {
  execute: typeof ExecuteModule.execute;
  Args: typeof ArgsModule;
  Errors: typeof ErrorsModule;
  Flags: typeof FlagsModule;
  Command: typeof CommandModule.Command;
  Config: typeof ConfigModule.Config;
  Help: typeof HelpModule;
}

// oclif as one file (scripts/bundle-oclif.js builds dist/oclif.cjs): start-up. bin/run.js has
// required it already, so this is the same instance, and every part of devboy (commands, help,
// hooks, the tests' in-process runner) must take oclif from here: a second copy's errors and
// classes would not be the ones oclif's own checks expect.
const oclif = createRequire(import.meta.url)('../../oclif.cjs') as OclifBundle;

export const { Args, Errors, Flags, Command, Config } = oclif;
export type Config = ConfigModule.Config;

/** Only help needs it. */
export function helpModule(): typeof HelpModule {
  return oclif.Help;
}
