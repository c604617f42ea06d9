import { constants } from 'node:os';
import { removeLiveTempsSync } from '../io/live-temps.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
let installed = false;

/**
 * When the process is interrupted (Ctrl-C, SIGTERM, a closed terminal) or exits, remove the temporary
 * files of writes still under way, so that an interrupted `-o` leaves the target as it was and
 * nothing beside it. Then die of the same signal, as an uncaught signal would have: the shell sees
 * 128 + its number, and a script loop running devboy stops instead of going on to the next step.
 * Only the owner of the process may do this, so the CLI calls it, never the library.
 */
export function removeTempFilesOnInterrupt(): void {
  if (installed) return;
  installed = true;
  process.on('exit', removeLiveTempsSync);
  for (const signal of SIGNALS) {
    const onSignal = (): void => {
      removeLiveTempsSync();
      process.removeListener(signal, onSignal);
      if (process.listenerCount(signal) === 0) process.kill(process.pid, signal);
      // Still here: someone else also listens, or the signal is blocked; exit as a shell would report it.
      process.exit(128 + constants.signals[signal]);
    };
    process.on(signal, onSignal);
  }
}
