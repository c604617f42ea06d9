import { UsageError } from '../errors.js';
import type { DatasetKind, ProviderName } from '../model/index.js';
import { listProjects, scanCorpus, type SkippedRecording, type UnmeasuredRecording } from '../replay/corpus.js';
import type { CorpusEntry } from '../replay/exchange.js';
import { editDistance } from '../text/edit-distance.js';
import { planProject } from './corpus-plan.js';
import { isProviderName, PROVIDER_NAMES } from './registry.js';

/** What a listing is narrowed to, as a benchmark run is: `--provider`, `--project`, `--dataset`. */
export interface CorpusListFilter {
  provider?: ProviderName;
  /** A project folder name, e.g. `betamaxpy__betamax` or `ALOY`. */
  project?: string;
  /** Dataset kinds to list (all when absent). */
  kinds?: readonly DatasetKind[];
}

export interface CorpusListing {
  filter: CorpusListFilter;
  providers: {
    provider: ProviderName;
    projects: {
      project: string;
      recordings: number;
      /** What the benchmark would measure: one entry per dataset it plans (before replay). */
      datasets: { kind: DatasetKind; label: string; files: string[] }[];
      /** Recordings no run will measure, whatever the replay does, and why (a run lists them too). */
      notMeasured: UnmeasuredRecording[];
    }[];
  }[];
  skipped: SkippedRecording[];
}

/**
 * What a corpus holds, without replaying it: providers, projects, and the datasets devboy would
 * read, narrowed as a run with the same flags would be. A provider or project the corpus does not
 * hold is refused as the run refuses it (its projects, closest first).
 */
export async function listCorpus(dir: string, filter: CorpusListFilter = {}): Promise<CorpusListing> {
  const { projects, skipped } = await scanCorpus(dir, {
    providers: PROVIDER_NAMES,
    ...(filter.provider ? { provider: filter.provider } : {}),
    ...(filter.project ? { project: filter.project } : {}),
  });
  if (projects.length === 0 && (filter.provider || filter.project)) throw await noRecordingsError(dir, filter);
  const providers: CorpusListing['providers'] = [];
  for (const provider of PROVIDER_NAMES) {
    const mine = projects.filter((p) => p.provider === provider);
    if (mine.length === 0) continue;
    providers.push({
      provider,
      projects: mine.map((p) => ({
        project: p.project,
        recordings: p.entries.length,
        ...planned(p.provider, p.entries, filter.kinds),
      })),
    });
  }
  return { filter, providers, skipped };
}

/** A provider or project asked for that the corpus does not hold: what it holds instead, the likeliest meant first. */
export async function noRecordingsError(corpusDir: string, options: Pick<CorpusListFilter, 'provider' | 'project'>): Promise<UsageError> {
  const wanted = [options.provider, options.project].filter(Boolean).join('/');
  return new UsageError(`no recordings for ${wanted} in the corpus; ${await whatItHolds(corpusDir, options)}`, { file: corpusDir });
}

async function whatItHolds(corpusDir: string, options: Pick<CorpusListFilter, 'provider' | 'project'>): Promise<string> {
  const all = await listProjects(corpusDir, options.provider ? [options.provider] : PROVIDER_NAMES);
  if (all.length === 0)
    return `it holds no ${options.provider ?? 'provider'} projects (devboy benchmark --corpus DIR --list shows what it holds)`;
  // Ranked by the project's own name: `ALO` is nearer `ALOY` than `AC`, whatever provider holds each.
  const wanted = options.project?.toLowerCase();
  const distance = (p: { project: string }) => editDistance(wanted ?? '', p.project.toLowerCase());
  const sorted = wanted ? [...all].sort((a, b) => distance(a) - distance(b)) : all;
  const ranked = sorted.map((p) => (options.provider ? p.project : `${p.provider}/${p.project}`));
  const shown = ranked.slice(0, 5);
  return `its projects${options.project ? ', closest first' : ''}: ${shown.join(', ')}${ranked.length > shown.length ? ` (and ${ranked.length - shown.length} more: --list shows all)` : ''}`;
}

function planned(
  provider: string,
  entries: readonly CorpusEntry[],
  kinds: readonly DatasetKind[] | undefined,
): { datasets: { kind: DatasetKind; label: string; files: string[] }[]; notMeasured: UnmeasuredRecording[] } {
  if (!isProviderName(provider)) return { datasets: [], notMeasured: [] };
  const plan = planProject(provider, entries);
  return {
    // A list's items of another kind (a mixed issues list's pull requests) are a dataset of their own, from the same recording.
    datasets: plan.datasets
      .flatMap(({ kind, label, files, alongside }) => [{ kind, label, files }, ...(alongside ? [{ ...alongside, files }] : [])])
      .filter(({ kind }) => !kinds || kinds.includes(kind)),
    notMeasured: plan.notPlanned,
  };
}
