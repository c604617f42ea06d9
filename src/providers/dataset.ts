import { compact } from './json-read.js';
import { compare } from './corpus-plan.js';
import type { CallResult, Dataset, DatasetKind, ProviderName } from './types.js';
import { DATASET_KINDS, PROVIDER_NAMES } from './types.js';

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
      kind,
      label,
      result: compact({ items: r.items, pagination: r.pagination, sort_info: r.sort_info }),
      raw: r.raw,
      requests: r.requests,
    };
  }
  return {
    provider,
    project,
    kind,
    label,
    result: { items: results.flatMap((r) => r.items) },
    raw: results.flatMap((r) => r.raw),
    requests: results.flatMap((r) => r.requests),
  };
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
