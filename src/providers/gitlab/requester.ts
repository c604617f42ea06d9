import type { Transport } from '../../http/transport.js';
import { ShapeError } from '../json-read.js';

/**
 * Gitbeaker's own request handler calls the global fetch and retries 429/502 ten times within a
 * quarter second, ignoring Retry-After. This handler is the same contract (Gitbeaker's
 * `createRequesterFn` extension point) on devboy's transport, which waits as the server says.
 */
export async function createGitlabRequesterFn(transport: Transport): Promise<unknown> {
  const { createRequesterFn } = await import('@gitbeaker/requester-utils');
  const { GitbeakerRequestError } = await import('@gitbeaker/rest');

  interface HandlerOptions {
    prefixUrl?: string;
    searchParams?: string;
    method?: string;
    headers?: Record<string, string>;
    body?: RequestInit['body'];
    signal?: AbortSignal;
  }

  const handler = async (endpoint: string, options: HandlerOptions) => {
    const { prefixUrl = '', searchParams, method = 'GET', headers, body, signal } = options;
    const url = new URL(endpoint, prefixUrl.endsWith('/') ? prefixUrl : `${prefixUrl}/`);
    url.search = searchParams ?? '';
    const request = new Request(url, {
      method,
      ...(headers ? { headers } : {}),
      ...(body !== undefined ? { body } : {}),
      ...(signal ? { signal } : {}),
    });
    const response = await transport.fetch(request);
    const text = await response.text();
    if (!response.ok) {
      throw new GitbeakerRequestError(response.statusText || `HTTP ${response.status}`, {
        cause: { description: text.slice(0, 300), request, response },
      });
    }
    const contentType = (response.headers.get('content-type') ?? '').split(';')[0]!.trim();
    let parsed: unknown = text;
    if (contentType === 'application/json' || /^\s*[[{]/.test(text)) {
      try {
        parsed = text === '' ? {} : JSON.parse(text);
      } catch {
        throw new ShapeError('the body is not valid JSON');
      }
    }
    return { body: parsed, headers: Object.fromEntries(response.headers.entries()), status: response.status };
  };

  return createRequesterFn((_serviceOptions, requestOptions) => Promise.resolve(requestOptions), handler as never);
}
