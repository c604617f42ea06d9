import { UsageError } from '../errors.js';
import { loadCorpusDatasets, loadLiveDatasets, liveProjectName, type LiveLoadOptions } from '../providers/load.js';
import type { Dataset, ProgressEvent, ProviderName } from '../providers/types.js';
import type { BenchmarkSource } from './run.js';

export interface SourceRequest {
  corpus?: string;
  provider?: ProviderName;
  owner?: string;
  repo?: string;
  project?: string;
  jql?: string;
  limit?: number;
  live?: Omit<LiveLoadOptions, 'provider' | 'owner' | 'repo' | 'project' | 'jql' | 'limit'>;
  onProgress?: (event: ProgressEvent) => void;
}

/**
 * Where the data comes from: a recorded corpus (every project, or narrowed by provider/project)
 * or a live provider. Owner/repo without a corpus means live; with one they narrow it.
 */
export async function loadBenchmarkData(req: SourceRequest): Promise<{ datasets: Dataset[]; source: BenchmarkSource }> {
  if (req.corpus) {
    const project = req.project ?? (req.owner && req.repo ? `${req.owner}/${req.repo}`.split('/').join('__') : undefined);
    const datasets = await loadCorpusDatasets(req.corpus, {
      ...(req.provider ? { provider: req.provider } : {}),
      ...(project ? { project } : {}),
      ...(req.onProgress ? { onProgress: req.onProgress } : {}),
    });
    if (datasets.length === 0) {
      const what = [req.provider, project].filter(Boolean).join('/');
      throw new UsageError(`no datasets${what ? ` for ${what}` : ''} in the corpus (devboy reads issue, PR/MR, diff, comment and discussion lists)`, { file: req.corpus });
    }
    return { datasets, source: { kind: 'corpus', corpus: req.corpus, ...(req.provider ? { provider: req.provider } : {}), ...(project ? { target: project } : {}) } };
  }
  if (!req.provider) {
    throw new UsageError('say where the data comes from: --corpus DIR (or DEVBOY_CORPUS) to replay recordings, or --provider github|gitlab|jira to read live');
  }
  const options: LiveLoadOptions = {
    ...req.live,
    provider: req.provider,
    ...(req.owner ? { owner: req.owner } : {}),
    ...(req.repo ? { repo: req.repo } : {}),
    ...(req.project ? { project: req.project } : {}),
    ...(req.jql ? { jql: req.jql } : {}),
    ...(req.limit ? { limit: req.limit } : {}),
    ...(req.onProgress ? { onProgress: req.onProgress } : {}),
  };
  const target = liveProjectName(options);
  const datasets = await loadLiveDatasets(options);
  return { datasets, source: { kind: 'live', provider: req.provider, target } };
}
