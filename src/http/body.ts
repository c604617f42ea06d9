/**
 * Reading a response body with a size cap. `response.text()` would buffer whatever the server
 * sends; an endless body then grows until the process dies.
 */

export const NULL_BODY_STATUSES = new Set([101, 204, 205, 304]);

export class BodyTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`response body over ${maxBytes} bytes`);
    this.name = 'BodyTooLarge';
  }
}

/** The body as text (UTF-8, BOM dropped, as `text()` does), or BodyTooLarge past `maxBytes` decoded bytes. */
export async function readBounded(response: Response, maxBytes: number): Promise<string> {
  if (NULL_BODY_STATUSES.has(response.status) || response.body === null) return '';
  // Content-Length counts encoded bytes; it only says something about the decoded size when there is no encoding.
  const encoding = (response.headers.get('content-encoding') ?? 'identity').trim().toLowerCase();
  const declared = Number(response.headers.get('content-length') ?? Number.NaN);
  if (encoding === 'identity' && declared > maxBytes) {
    void response.body.cancel().catch(() => undefined);
    throw new BodyTooLarge(maxBytes);
  }
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      void reader.cancel().catch(() => undefined);
      throw new BodyTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  return new TextDecoder().decode(Buffer.concat(chunks, size));
}
