import { rmSync } from 'node:fs';

/**
 * The temporary paths alive in this process (see temp-files.ts), apart from how they are named: the
 * CLI's interrupt handler needs only this list, and every command installs it, so it must not load
 * what making names needs (node:crypto costs start-up time).
 */
const live = new Set<string>();

/** `path` exists and is ours to remove if the process is interrupted. */
export function trackTemp(path: string): void {
  live.add(path);
}

/** `path` has been renamed into place or removed. */
export function untrackTemp(path: string): void {
  live.delete(path);
}

/**
 * Remove every live temporary path, synchronously: for signal and exit handlers, which cannot wait.
 * Failures are ignored; there is nobody left to tell.
 */
export function removeLiveTempsSync(): void {
  for (const path of live) {
    try {
      rmSync(path, { recursive: true, force: true });
    } catch {
      // best effort
    }
    live.delete(path);
  }
}
