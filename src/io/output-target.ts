import { fstatSync, type Stats } from 'node:fs';
import { lstat, readlink, realpath, stat } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { DataError } from '../errors.js';

/**
 * What an output path names, which decides how it is written:
 * - `fd`: standard output (`-`, `/dev/stdout`) or another open descriptor (`/dev/fd/N`,
 *   `/proc/self/fd/N`): written to that descriptor, as the shell set it up (append mode included).
 * - `device` (character or block device, FIFO) and `socket`: written directly, as they are streams;
 *   replacing them would destroy them (a renamed-over /dev/null is a regular file).
 * - `file`: a regular file, or none yet: replaced atomically. `path` is the real file behind any
 *   symlinks, so that the link stays a link; `existing` is what the replacement must keep.
 */
export type OutputTarget =
  | { kind: 'fd'; fd: number }
  | { kind: 'device'; path: string }
  | { kind: 'socket'; path: string }
  | { kind: 'file'; path: string; existing?: { mode: number; uid: number; gid: number }; missingFolder?: string };

const MAX_SYMLINKS = 40;

/**
 * `createFolders`: a folder missing on the way to a new file is no error while its nearest existing
 * ancestor is a folder; the target names it (`missingFolder`) and the file's writer makes it.
 */
export async function resolveOutputTarget(path: string, options: { createFolders?: boolean } = {}): Promise<OutputTarget> {
  const fd = descriptorOf(path);
  if (fd !== undefined) {
    let info: Stats;
    try {
      info = fstatSync(fd);
    } catch {
      throw new DataError(`cannot write: file descriptor ${fd} is not open`, { file: path });
    }
    // Not a file, pipe, terminal or socket: one of Node's own (epoll, eventfd), never the shell's.
    if (!(info.isFile() || info.isFIFO() || info.isCharacterDevice() || info.isSocket()))
      throw new DataError(`cannot write: file descriptor ${fd} is not an output devboy was given`, { file: path });
    return { kind: 'fd', fd };
  }
  let info: Stats;
  try {
    info = await stat(path);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return newFile(path, options.createFolders ?? false);
    if (code === 'ENOTDIR') throw new DataError(`cannot write: ${await fileInTheWay(path)} is not a folder`, { file: path }, err);
    throw writeError(path, err);
  }
  if (info.isDirectory()) throw new DataError('cannot write: it is a folder', { file: path });
  if (info.isSocket()) return { kind: 'socket', path };
  if (!info.isFile()) return { kind: 'device', path };
  return { kind: 'file', path: await realpath(path), existing: { mode: info.mode & 0o7777, uid: info.uid, gid: info.gid } };
}

/**
 * The descriptor a path stands for, when it is one of the names for "this process's descriptor N".
 * Opening such a path anew would start at offset 0 and truncate a file the shell opened for append.
 */
export function descriptorOf(path: string): number | undefined {
  if (path === '-') return 1;
  const abs = resolve(path);
  if (abs === '/dev/stdout') return 1;
  if (abs === '/dev/stderr') return 2;
  const m = /^(?:\/dev\/fd|\/proc\/(?:self|thread-self|(\d+))\/fd)\/(\d+)$/.exec(abs);
  if (!m || (m[1] !== undefined && Number(m[1]) !== process.pid)) return undefined;
  return Number(m[2]);
}

/** A path with nothing there: a dangling symlink's target, or the path itself; its folder must exist. */
async function newFile(path: string, createFolders: boolean): Promise<OutputTarget> {
  let target = path;
  for (let hops = 0; hops < MAX_SYMLINKS; hops++) {
    let isLink: boolean;
    try {
      isLink = (await lstat(target)).isSymbolicLink();
    } catch {
      isLink = false;
    }
    if (!isLink) break;
    target = resolve(dirname(target), await readlink(target));
  }
  const folder = dirname(target);
  let info: Stats;
  try {
    info = await stat(folder);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') {
      if (createFolders && (await nearestFolder(folder))) return { kind: 'file', path: target, missingFolder: folder };
      throw new DataError(`cannot write: the folder ${folder} does not exist (create it with mkdir -p ${folder})`, { file: path }, err);
    }
    if (code === 'ENOTDIR') throw new DataError(`cannot write: ${await fileInTheWay(folder)} is not a folder`, { file: path }, err);
    throw writeError(path, err);
  }
  if (!info.isDirectory()) throw new DataError(`cannot write: ${folder} is not a folder`, { file: path });
  return { kind: 'file', path: target };
}

/** Whether the nearest existing ancestor of a missing folder is a folder (so the missing ones can be made). */
async function nearestFolder(path: string): Promise<boolean> {
  let current = dirname(path);
  for (;;) {
    try {
      return (await stat(current)).isDirectory();
    } catch {
      if (current === dirname(current)) return false;
      current = dirname(current);
    }
  }
}

/** The nearest existing ancestor of `path`, which (after ENOTDIR) is a file where a folder should be. */
async function fileInTheWay(path: string): Promise<string> {
  let current = dirname(path);
  while (current !== dirname(current)) {
    try {
      await stat(current);
      return current;
    } catch {
      current = dirname(current);
    }
  }
  return current;
}

const REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  EISDIR: 'it is a folder',
  ENOENT: 'no such file or folder',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'disk quota exceeded',
  EROFS: 'read-only file system',
  ENAMETOOLONG: 'the name is too long',
  ELOOP: 'too many levels of symbolic links',
  ENXIO: 'nothing is reading it',
  ECONNREFUSED: 'nothing is listening on the socket',
  EPIPE: 'the reader went away',
  EFBIG: 'the file is too large',
  EIO: 'input/output error',
};

/** A one-line error for a failed write of `path`; `doing` says which step, when it helps the reader. */
export function writeError(path: string, err: unknown, doing?: string): DataError {
  if (err instanceof DataError) return err;
  const code = (err as NodeJS.ErrnoException).code;
  const reason = (code && REASONS[code]) ?? code ?? (err as Error).message;
  return new DataError(`cannot write: ${reason}${doing ? ` ${doing}` : ''}`, { file: path }, err);
}
