import type { DatasetKind, ProviderName } from '../model/index.js';
import { scanCorpus, type SkippedRecording } from '../replay/corpus.js';
import { planCorpus } from './corpus-plan.js';
import { isProviderName, PROVIDER_NAMES } from './registry.js';

export interface CorpusListing {
  providers: {
    provider: ProviderName;
    projects: {
      project: string;
      recordings: number;
      /** What the benchmark would measure: one entry per dataset it plans (before replay). */
      datasets: { kind: DatasetKind; label: string; files: string[] }[];
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
        datasets: isProviderName(p.provider)
          ? planCorpus(p.provider, p.entries).map(({ kind, label, files }) => ({ kind, label, files }))
          : [],
      })),
    });
  }
  return { providers, skipped };
}
