import { compact } from './json-read.js';
import { alongsideLabel, compare } from './corpus-plan.js';
import { DATASET_KINDS, kindedResult, type Dataset, type DatasetKind, type ProviderName } from '../model/index.js';
import { PROVIDER_NAMES } from './registry.js';
import type { CallResult } from './types.js';

/** Results of the calls behind one dataset → the Dataset. Joined single GETs have no pagination or sort. */
export function toDataset(
  provider: ProviderName,
  project: string,
  kind: DatasetKind,
  label: string,
  results: readonly CallResult[],
): Dataset {
  if (results.length === 1) {
    const r = results[0]!;
    return {
      provider,
      project,
      label,
      ...kindedResult(kind, compact({ items: r.items, pagination: r.pagination, sort_info: r.sort_info })),
      raw: r.raw,
      requests: r.requests,
    };
  }
  return {
    provider,
    project,
    label,
    ...kindedResult(kind, { items: results.flatMap((r) => r.items) }),
    raw: results.flatMap((r) => r.raw),
    requests: results.flatMap((r) => r.requests),
  };
}

/**
 * The items of another kind a call's answer held (the pull requests of a GitHub issues list), as a
 * dataset of their own: the same request, labelled `<label> (its pull requests)`, with the list's
 * pagination and sort (they came from the same API pages). None when the answer held none.
 */
export function alongsideDataset(provider: ProviderName, project: string, label: string, result: CallResult): Dataset | undefined {
  const other = result.alongside;
  if (!other || other.items.length === 0) return undefined;
  return toDataset(provider, project, other.kind, alongsideLabel(label, other.what), [{ ...result, items: other.items, raw: other.raw }]);
}

/** Provider, project, kind (issues, merge requests, diffs, comments, discussions), label. */
export function sortDatasets(datasets: Dataset[]): Dataset[] {
  return datasets.sort(
    (a, b) =>
      PROVIDER_NAMES.indexOf(a.provider) - PROVIDER_NAMES.indexOf(b.provider) ||
      compare(a.project, b.project) ||
      DATASET_KINDS.indexOf(a.kind) - DATASET_KINDS.indexOf(b.kind) ||
      compare(a.label, b.label),
  );
}
