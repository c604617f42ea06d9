import { createWriteStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createConnection, type Socket } from 'node:net';
import type { Writable } from 'node:stream';
import { AtomicFile } from './atomic-file.js';
import { resolveOutputTarget, writeError } from './output-target.js';

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

/** A regular file, replaced atomically at the end: never seen half-written. */
export class AtomicFileSink extends BufferedSink {
  constructor(private readonly file: AtomicFile) {
    super();
  }

  protected deliver(text: string): Promise<void> {
    return this.file.write(text);
  }

  async commit(): Promise<void> {
    try {
      await this.flush();
    } catch (err) {
      await this.abort();
      throw err;
    }
    await this.file.commit();
  }

  abort(): Promise<void> {
    return this.file.abort();
  }
}

/**
 * A stream behind an `-o` path, written as the output is made; what was delivered before a failure
 * stays delivered. One devboy opened itself (a device, a FIFO, a socket) is closed at the end, so
 * that its reader sees end of file; a descriptor the shell opened (`3>>log`, `>(cmd)`) is left open.
 */
class PathStreamSink extends WritableSink {
  constructor(
    private readonly path: string,
    private readonly writable: Writable,
    private readonly owned: boolean,
  ) {
    super(writable);
    // Errors also arrive through write callbacks; without a listener they would crash the process.
    writable.on('error', () => {});
  }

  protected override async deliver(text: string): Promise<void> {
    try {
      await super.deliver(text);
    } catch (err) {
      throw writeError(this.path, err);
    }
  }

  override async commit(): Promise<void> {
    await this.flush();
    if (!this.owned || this.writable.closed) return;
    await new Promise<void>((resolve) => {
      this.writable.once('close', () => resolve());
      // A socket whose peer keeps its half open would never close by itself: all is sent at 'finish'.
      this.writable.end(() => this.writable.destroy());
    });
  }

  override async abort(): Promise<void> {
    if (this.owned) this.writable.destroy();
  }
}

/**
 * Where `-o PATH` output goes, by what PATH names (see OutputTarget): standard output for `-` and
 * `/dev/stdout`, the descriptor itself for `/dev/fd/N`, a direct stream for devices, FIFOs and
 * sockets, and an atomic replacement for a regular file (through symlinks, keeping its mode).
 */
export async function openFileSink(
  path: string,
  stdout: NodeJS.WritableStream = process.stdout,
  options: { createFolders?: boolean } = {},
): Promise<TextSink> {
  const target = await resolveOutputTarget(path, options);
  switch (target.kind) {
    case 'fd':
      if (target.fd === 1) return new WritableSink(stdout);
      if (target.fd === 2) return new WritableSink(process.stderr);
      return new PathStreamSink(path, createWriteStream('', { fd: target.fd, autoClose: false }), false);
    case 'device':
      try {
        return new PathStreamSink(path, (await open(target.path, 'w')).createWriteStream(), true);
      } catch (err) {
        throw writeError(path, err);
      }
    case 'socket':
      return new PathStreamSink(path, await connectTo(path), true);
    case 'file':
      return new AtomicFileSink(await AtomicFile.create(target));
  }
}

function connectTo(path: string): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (err) => reject(writeError(path, err)));
  });
}
