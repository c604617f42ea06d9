import { close, fchmod, fchown, fsync, mkdirSync, openSync, renameSync, rmSync, writeFile } from 'node:fs';
import { dirname } from 'node:path';
import { promisify } from 'node:util';
import type { OutputTarget } from './output-target.js';
import { writeError } from './output-target.js';
import { removeStaleTemps, tempPathIn, trackTemp, untrackTemp } from './temp-files.js';

const writeFd = promisify(writeFile);
const fsyncFd = promisify(fsync);
const closeFd = promisify(close);
const fchmodFd = promisify(fchmod);
const fchownFd = promisify(fchown);

/**
 * A regular file replaced atomically: the new content goes to a temporary file beside it (same folder,
 * so the same file system), is flushed to disk, gets the old file's mode and owner, and is renamed
 * over it. Readers see the old content or all of the new, never a part.
 *
 * Creating and renaming the temporary file are synchronous on purpose: signal handlers run between
 * event-loop turns, so they always find the list of live temporary files exactly in step with the disk.
 */
export class AtomicFile {
  private constructor(
    readonly target: Extract<OutputTarget, { kind: 'file' }>,
    private readonly tmp: string,
    private fd: number | undefined,
  ) {}

  static async create(target: Extract<OutputTarget, { kind: 'file' }>): Promise<AtomicFile> {
    const folder = dirname(target.path);
    if (target.missingFolder) {
      try {
        mkdirSync(target.missingFolder, { recursive: true });
      } catch (err) {
        throw writeError(target.path, err, `to create the folder ${target.missingFolder}`);
      }
    }
    await removeStaleTemps(folder);
    const tmp = tempPathIn(folder);
    let fd: number;
    try {
      // An existing file may hold secrets: its replacement is private until it gets the file's mode.
      fd = openSync(tmp, 'wx', target.existing ? 0o600 : 0o666);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      throw code === 'EACCES' || code === 'EPERM'
        ? writeError(
            target.path,
            err,
            `to create a file in ${folder} (devboy writes a temporary file beside the target and renames it into place)`,
          )
        : writeError(target.path, err);
    }
    trackTemp(tmp);
    return new AtomicFile(target, tmp, fd);
  }

  async write(data: string | Uint8Array): Promise<void> {
    try {
      await writeFd(this.fd!, data);
    } catch (err) {
      throw writeError(this.target.path, err);
    }
  }

  /** Make the new content appear. On failure the target is as it was and the temporary file gone. */
  async commit(): Promise<void> {
    const fd = this.fd!;
    try {
      const existing = this.target.existing;
      if (existing) {
        await fchmodFd(fd, existing.mode);
        // Only root can give a file away; for anyone else the new file is simply theirs.
        if (existing.uid !== process.getuid?.() || existing.gid !== process.getgid?.())
          await fchownFd(fd, existing.uid, existing.gid).catch(() => {});
      }
      await fsyncFd(fd);
      this.fd = undefined;
      await closeFd(fd);
      renameSync(this.tmp, this.target.path);
      untrackTemp(this.tmp);
    } catch (err) {
      await this.abort();
      throw writeError(this.target.path, err);
    }
  }

  /** Forget the new content: the target stays as it was. */
  async abort(): Promise<void> {
    const fd = this.fd;
    this.fd = undefined;
    if (fd !== undefined) await closeFd(fd).catch(() => {});
    rmSync(this.tmp, { force: true });
    untrackTemp(this.tmp);
  }
}
