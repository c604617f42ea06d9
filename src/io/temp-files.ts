import { createHash, randomBytes } from 'node:crypto';
import { lstat, readdir, rm } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';

export { removeLiveTempsSync, trackTemp, untrackTemp } from './live-temps.js';

/**
 * Temporary files and folders devboy makes beside its outputs, and the list of those alive in this
 * process, so that whoever owns the process (the CLI) can remove them when it is interrupted.
 *
 * Names are `.devboy-tmp-<host>-<pid>-<random>`: short whatever the target's name (a 255-byte target
 * name must still work), and telling which process made them, so that a later write can remove the
 * leftovers of a process that was killed outright (SIGKILL, power loss), which nothing can catch.
 */
const TEMP_PREFIX = '.devboy-tmp-';
/** Folders set aside while a recording replaces them: never removed as stale, they may be the only copy. */
const ASIDE_PREFIX = '.devboy-old-';
/** Hashed so that a host name never makes the file name long or odd; only equality matters. */
const HOST_TAG = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
const OURS = new RegExp(`^${escape(TEMP_PREFIX)}([0-9a-f]{8})-(\\d+)-[0-9a-f]{8}$`);
/** Names of earlier devboy versions (`.devboy-tmp-<pid>-<random>-<target name>`), which carry no host. */
const LEGACY = new RegExp(`^${escape(TEMP_PREFIX)}(\\d+)-[0-9a-f]{8}-.`);
/**
 * A leftover is removed only when its process has ended and it has not changed for this long: a
 * process in another pid namespace (a container writing into a shared folder under the same host
 * name) looks ended from here, but a live writer keeps touching its file.
 */
export const STALE_AFTER_MS = 60_000;

/** A fresh temporary path in `dir` (not created). */
export function tempPathIn(dir: string): string {
  return join(dir, `${TEMP_PREFIX}${HOST_TAG}-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/** A fresh path in `dir` to move a folder aside to while its replacement moves in. */
export function asidePathIn(dir: string): string {
  return join(dir, `${ASIDE_PREFIX}${HOST_TAG}-${process.pid}-${randomBytes(4).toString('hex')}`);
}

/**
 * Remove from `dir` the temporary files and folders of devboy processes on this host that have
 * ended, once untouched for STALE_AFTER_MS. Best effort: any failure leaves things as they are.
 */
export async function removeStaleTemps(dir: string, now = Date.now()): Promise<void> {
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return;
  }
  for (const name of names) {
    if (!name.startsWith(TEMP_PREFIX)) continue;
    const pid = ownerPid(name);
    if (pid === undefined || pid === process.pid || isRunning(pid)) continue;
    const path = join(dir, name);
    try {
      if (now - (await lstat(path)).mtimeMs < STALE_AFTER_MS) continue;
      await rm(path, { recursive: true, force: true });
    } catch {
      // gone meanwhile, or not ours to remove
    }
  }
}

/** The pid in a temp name made on this host, if it is one. */
function ownerPid(name: string): number | undefined {
  const ours = OURS.exec(name);
  if (ours) return ours[1] === HOST_TAG ? Number(ours[2]) : undefined;
  const legacy = LEGACY.exec(name);
  return legacy ? Number(legacy[1]) : undefined;
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists, under another user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
