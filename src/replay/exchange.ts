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
