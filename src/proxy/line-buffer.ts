import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

/**
 * The SDK's stdio transports read through a ReadBuffer that copies everything buffered on every chunk
 * and searches it all for a newline again: a 20 MB message arriving in 64 KB chunks costs gigabytes
 * of copying. This one keeps the chunks, searches each new chunk once, and joins a message's bytes
 * once. Messages are still parsed and checked by the SDK's own `deserializeMessage`.
 */
export class LineReadBuffer {
  private chunks: Buffer[] = [];
  private size = 0;
  /** Complete lines not yet read. */
  private readonly lines: Buffer[] = [];

  constructor(
    private readonly maxBytes: number,
    private readonly deserialize: (line: string) => JSONRPCMessage,
  ) {}

  append(chunk: Buffer): void {
    let start = 0;
    let nl = chunk.indexOf(10);
    while (nl !== -1) {
      const part = chunk.subarray(start, nl);
      this.lines.push(this.chunks.length === 0 ? part : Buffer.concat([...this.chunks, part]));
      this.chunks = [];
      this.size = 0;
      start = nl + 1;
      nl = chunk.indexOf(10, start);
    }
    if (start < chunk.length) {
      this.size += chunk.length - start;
      if (this.size > this.maxBytes) {
        this.clear();
        throw new Error(`ReadBuffer exceeded maximum size of ${this.maxBytes} bytes`);
      }
      this.chunks.push(chunk.subarray(start));
    }
  }

  readMessage(): JSONRPCMessage | null {
    const line = this.lines.shift();
    if (line === undefined) return null;
    return this.deserialize(line.toString('utf8').replace(/\r$/, ''));
  }

  clear(): void {
    this.chunks = [];
    this.size = 0;
    this.lines.length = 0;
  }
}

/** Put a LineReadBuffer in place of an SDK stdio transport's ReadBuffer (before it starts). */
export async function useLineBuffer(transport: object, maxBytes: number): Promise<void> {
  const { deserializeMessage } = await import('@modelcontextprotocol/sdk/shared/stdio.js');
  const t = transport as { _readBuffer?: unknown };
  if (!t._readBuffer) throw new Error('this SDK transport has no _readBuffer to replace');
  t._readBuffer = new LineReadBuffer(maxBytes, deserializeMessage);
}
