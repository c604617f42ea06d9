import type { Hook } from '@oclif/core';
import { EXIT_USAGE } from '../../errors.js';
import { visibleCommandIds } from '../help.js';
import { notFoundMessage } from '../not-found.js';
import { commandStreams } from '../streams.js';

/**
 * `devboy bench`: oclif's own answer is a boxed `›   Error: command bench not found`; devboy's is
 * the one line every other usage error gets, with exit 2. Written here rather than thrown, because
 * oclif prints what a hook throws in its own style.
 */
const hook: Hook<'command_not_found'> = async function (opts) {
  commandStreams().stderr.write(`devboy: ${notFoundMessage(opts.id.replace(/:/g, ' '), visibleCommandIds(opts.config))}\n`);
  process.exitCode = EXIT_USAGE;
};

export default hook;
