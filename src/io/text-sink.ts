import { randomBytes } from 'node:crypto';
import { open, rename, unlink, type FileHandle } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';
import { DataError } from '../errors.js';

/**
 * Where streamed output goes. `write` only buffers; `flush` hands the buffer over and resolves once it
 * is written, which is the backpressure: a producer that awaits flush never runs ahead of its reader.
 */
export interface TextSink {
  write(text: string): void;
  flush(): Promise<void>;
  /** The reader went away (e.g. `| head`): producing more is pointless. */
  readonly gone: boolean;
  /** All output is written: flush, and for a file, make it appear. */
  commit(): Promise<void>;
  /** The run failed: for a file, leave no trace. */
  abort(): Promise<void>;
}

abstract class BufferedSink implements TextSink {
  private pending: string[] = [];
  gone = false;

  write(text: string): void {
    this.pending.push(text);
  }

  async flush(): Promise<void> {
    if (this.pending.length === 0 || this.gone) return;
    const text = this.pending.join('');
    this.pending = [];
    await this.deliver(text);
  }

  protected abstract deliver(text: string): Promise<void>;
  abstract commit(): Promise<void>;
  abstract abort(): Promise<void>;
}

/** A stream such as standard output; output already delivered stays delivered. */
export class WritableSink extends BufferedSink {
  constructor(private readonly stream: NodeJS.WritableStream) {
    super();
  }

  protected deliver(text: string): Promise<void> {
    return new Promise((resolve, reject) => {
      this.stream.write(text, (err) => {
        if (!err) return resolve();
        if ((err as NodeJS.ErrnoException).code === 'EPIPE') {
          this.gone = true;
          return resolve();
        }
        reject(err);
      });
    });
  }

  commit(): Promise<void> {
    return this.flush();
  }

  async abort(): Promise<void> {
    // Nothing to undo; the missing summary trailer tells a reader the stream is incomplete.
  }
}

/** A file written beside its target and renamed over it at the end: never seen half-written. */
export class AtomicFileSink extends BufferedSink {
  private constructor(
    private readonly path: string,
    private readonly tmp: string,
    private handle: FileHandle | undefined,
  ) {
    super();
  }

  static async create(path: string): Promise<AtomicFileSink> {
    const tmp = join(dirname(path), `.devboy-tmp-${process.pid}-${randomBytes(4).toString('hex')}-${basename(path)}`);
    try {
      return new AtomicFileSink(path, tmp, await open(tmp, 'wx', 0o644));
    } catch (err) {
      throw writeError(path, err);
    }
  }

  protected async deliver(text: string): Promise<void> {
    try {
      await this.handle!.write(text);
    } catch (err) {
      throw writeError(this.path, err);
    }
  }

  async commit(): Promise<void> {
    await this.flush();
    try {
      await this.handle!.sync();
      await this.handle!.close();
      this.handle = undefined;
      await rename(this.tmp, this.path);
    } catch (err) {
      await this.abort();
      throw writeError(this.path, err);
    }
  }

  async abort(): Promise<void> {
    if (this.handle) await this.handle.close().catch(() => {});
    this.handle = undefined;
    await unlink(this.tmp).catch(() => {});
  }
}

function writeError(path: string, err: unknown): DataError {
  const code = (err as NodeJS.ErrnoException).code;
  const why = code === 'ENOENT' ? 'no such directory' : code === 'EACCES' ? 'permission denied' : (code ?? (err as Error).message);
  return new DataError(`cannot write: ${why}`, { file: path }, err);
}
