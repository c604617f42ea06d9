import type { DatasetKind, ProviderName } from '../model/index.js';
import { scanCorpus, type SkippedRecording, type UnmeasuredRecording } from '../replay/corpus.js';
import type { CorpusEntry } from '../replay/exchange.js';
import { planProject } from './corpus-plan.js';
import { isProviderName, PROVIDER_NAMES } from './registry.js';

export interface CorpusListing {
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

/** What a corpus holds, without replaying it: providers, projects, and the datasets devboy would read. */
export async function listCorpus(dir: string): Promise<CorpusListing> {
  const { projects, skipped } = await scanCorpus(dir, { providers: PROVIDER_NAMES });
  const providers: CorpusListing['providers'] = [];
  for (const provider of PROVIDER_NAMES) {
    const mine = projects.filter((p) => p.provider === provider);
    if (mine.length === 0) continue;
    providers.push({
      provider,
      projects: mine.map((p) => ({
        project: p.project,
        recordings: p.entries.length,
        ...planned(p.provider, p.entries),
      })),
    });
  }
  return { providers, skipped };
}

function planned(
  provider: string,
  entries: readonly CorpusEntry[],
): { datasets: { kind: DatasetKind; label: string; files: string[] }[]; notMeasured: UnmeasuredRecording[] } {
  if (!isProviderName(provider)) return { datasets: [], notMeasured: [] };
  const plan = planProject(provider, entries);
  return { datasets: plan.datasets.map(({ kind, label, files }) => ({ kind, label, files })), notMeasured: plan.notPlanned };
}
