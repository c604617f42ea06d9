import type { JsonObject, JsonValue } from '../json/types.js';

/** One recorded HTTP exchange, in the format of the embedded corpus (corpus/README.md). */
export interface RecordedExchange {
  provider: string;
  /** `owner__repo` (a slash written as `__`), or a Jira project key. */
  project: string;
  request: { method: string; url: string };
  response: { status: number; headers: Record<string, string>; body: JsonValue };
  provenance: JsonObject;
}

/** A recorded exchange and the file it came from, relative to the corpus root (forward slashes). */
export interface CorpusEntry {
  file: string;
  exchange: RecordedExchange;
}

/** Provenance dates come as ISO (sometimes without a zone) or HTTP dates; a missing date sorts as oldest. */
export function recordedAtMs(exchange: RecordedExchange): number {
  const value = exchange.provenance['recorded_at'];
  if (typeof value !== 'string' || value.trim() === '') return Number.NEGATIVE_INFINITY;
  // An ISO time without a zone would be read as local time, which differs between machines: take it as UTC.
  const text = /^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?$/.test(value.trim()) ? `${value.trim()}Z` : value;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? ms : Number.NEGATIVE_INFINITY;
}

/** A header name HTTP can carry (RFC 9110 `token`): what Node's writeHead accepts. */
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/**
 * Why a recorded answer cannot be sent over HTTP, or undefined when it can: a status outside
 * 200 to 599 (a final answer fetch can hold), a header name that is not an HTTP token, a header
 * value with a line break, a control character or a character outside Latin-1. Node's writeHead
 * throws on each; checked before replay so that a bad recording is skipped and named, not fatal.
 */
export function unsendableResponse(response: { status: number; headers: Record<string, string> }): string | undefined {
  const { status } = response;
  if (!Number.isInteger(status) || status < 200 || status > 599)
    return `"response.status" must be an HTTP status, a whole number from 200 to 599, got ${status}`;
  for (const [name, value] of Object.entries(response.headers)) {
    if (!HEADER_NAME.test(name)) return `response header ${JSON.stringify(name)} is not a valid HTTP header name`;
    const what = headerValueFault(value);
    if (what) return `response header ${JSON.stringify(name)} has a value HTTP cannot carry (${what})`;
  }
  return undefined;
}

/** Node refuses a header value with anything but tab, printable ASCII and Latin-1 (a CR or LF would split the answer). */
function headerValueFault(value: string): string | undefined {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code === 0x0d || code === 0x0a) return 'a line break';
    if (code > 0xff) return 'a character outside Latin-1';
    if ((code < 0x20 && code !== 0x09) || code === 0x7f) return 'a control character';
  }
  return undefined;
}
