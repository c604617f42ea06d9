import type { CorpusEntry } from '../replay/exchange.js';
import { selectAnswered } from '../replay/match.js';
import type { DatasetKind, ProviderName } from '../model/index.js';
import { PROVIDERS } from './registry.js';
import type { EndpointCall } from './types.js';

/** The calls that rebuild one dataset from a corpus. */
export interface PlannedDataset {
  kind: DatasetKind;
  label: string;
  calls: EndpointCall[];
  /** The recordings the calls start from (corpus-relative files), for naming them when one fails. */
  files: string[];
}

/**
 * Plan the client calls that replay what a project's corpus holds:
 * - every distinct recorded GET that was answered with 2xx (duplicates resolved as the replay
 *   server resolves them) and that devboy understands becomes one call;
 * - recordings of later pages (`page` > 1, `startAt` > 0, a `nextPageToken`) are not starting
 *   points: they are reached by following the first page, and join its dataset;
 * - each list call is one dataset; single-object GETs (one issue, one pull/merge request) of the
 *   same kind join one dataset, in URL order.
 */
export function planCorpus(provider: ProviderName, entries: readonly CorpusEntry[]): PlannedDataset[] {
  const lists: PlannedDataset[] = [];
  const singles = new Map<DatasetKind, { label: string; call: EndpointCall; file: string }[]>();
  for (const entry of selectAnswered(entries)) {
    const { request, response } = entry.exchange;
    if (request.method !== 'GET' || response.status < 200 || response.status > 299) continue;
    const label = `GET ${pathAndQuery(request.url)}`;
    for (const call of PROVIDERS[provider].classify(request.url)) {
      if (call.single) {
        const group = singles.get(call.kind) ?? [];
        group.push({ label, call, file: entry.file });
        singles.set(call.kind, group);
      } else if (isFirstPage(call.params)) lists.push({ kind: call.kind, label, calls: [call], files: [entry.file] });
    }
  }
  for (const [kind, group] of singles) {
    group.sort((a, b) => compare(a.label, b.label));
    const label = group.length === 1 ? group[0]!.label : `${group[0]!.label} (+${group.length - 1} more single ${kind})`;
    lists.push({ kind, label, calls: group.map((g) => g.call), files: group.map((g) => g.file) });
  }
  return lists;
}

function isFirstPage(params: Record<string, string>): boolean {
  const page = params['page'];
  const startAt = params['startAt'];
  return (
    (page === undefined || Number(page) <= 1) && (startAt === undefined || Number(startAt) === 0) && params['nextPageToken'] === undefined
  );
}

export function pathAndQuery(url: string): string {
  if (!/^https?:\/\//i.test(url)) return url;
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

/** Code-unit order: the same on every machine and locale. */
export function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
