import { createRequire } from 'node:module';
import type * as ArgsModule from '@oclif/core/args';
import type * as CommandModule from '@oclif/core/command';
import type * as ErrorsModule from '@oclif/core/errors';
import type * as FlagsModule from '@oclif/core/flags';
import type * as HelpModule from '@oclif/core/help';

// oclif is CommonJS, and bin/run.js has required it already. Imported from ES modules, each of its
// files would be read and scanned again for the names it exports (cjs-module-lexer), which costs
// start-up time on every command; required, it is taken from the module cache.
const require = createRequire(import.meta.url);

export const Args = require('@oclif/core/args') as typeof ArgsModule;
export const Errors = require('@oclif/core/errors') as typeof ErrorsModule;
export const Flags = require('@oclif/core/flags') as typeof FlagsModule;

export const { Command } = require('@oclif/core/command') as typeof CommandModule;

/** Only help needs it: loaded when asked for. */
export function helpModule(): typeof HelpModule {
  return require('@oclif/core/help') as typeof HelpModule;
}
