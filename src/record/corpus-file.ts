import type { CompletedExchange } from '../http/transport.js';
import { recordableHeaders, redactUrl, scrubSecrets } from '../http/redact.js';
import type { JsonObject, JsonValue } from '../json/types.js';

export interface RecordingContext {
  provider: string;
  project: string;
  /** What the data is, for provenance: `owner/repo` or the Jira project key. */
  sourceRepo: string;
  recordedAt: string;
  recorder: string;
  secrets: readonly (string | undefined)[];
}

export interface CorpusFile {
  name: string;
  text: string;
}

/**
 * One exchange as a corpus file (`NNN_<METHOD>_<slug>.json`, compact JSON, the corpus README's
 * format). Headers are reduced to an allow-list, credentials leave the URL, and the whole text is
 * scrubbed of every secret in play, whatever a server echoed.
 */
export function toCorpusFile(exchange: CompletedExchange, index: number, ctx: RecordingContext): CorpusFile {
  const url = redactUrl(exchange.url);
  const record = {
    provider: ctx.provider,
    project: ctx.project,
    request: { method: exchange.method, url },
    response: { status: exchange.status, headers: recordableHeaders(exchange.headers), body: bodyOf(exchange) },
    provenance: {
      source_repo: ctx.sourceRepo,
      source_commit: null,
      source_path: null,
      license: `unknown: live data of ${ctx.sourceRepo}; check its terms before sharing`,
      recorded_at: ctx.recordedAt,
      envelope: `recorded (${ctx.recorder})`,
      content: 'recorded',
    } satisfies JsonObject,
  };
  const name = `${String(index).padStart(3, '0')}_${exchange.method}_${slugOf(url)}.json`;
  return { name, text: `${scrubSecrets(JSON.stringify(record), ctx.secrets)}\n` };
}

function bodyOf(exchange: CompletedExchange): JsonValue {
  if (exchange.body === '') return null;
  try {
    return JSON.parse(exchange.body) as JsonValue;
  } catch {
    return exchange.body;
  }
}

/** Like the corpus's names: path and query, non-alphanumerics as `_`, at most 100 characters. */
export function slugOf(url: string): string {
  let rest = url;
  try {
    const parsed = new URL(url);
    rest = `${parsed.pathname}${parsed.search}`;
  } catch {
    // not absolute: use as is
  }
  const slug = rest
    .replace(/%/g, '')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '');
  return (slug || 'root').slice(0, 100).replace(/_+$/, '');
}
