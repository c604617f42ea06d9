import { DataError, UsageError } from '../errors.js';
import { skippedText, type SkippedRecording, type UnmeasuredRecording } from '../replay/corpus.js';
import { READ_KINDS } from '../providers/corpus-plan.js';
import { openCorpusDatasets, loadLiveDatasets, liveProjectName, type LiveLoadOptions } from '../providers/load.js';
import type { Dataset, ProviderName } from '../model/index.js';
import type { ProgressEvent } from '../providers/types.js';
import { EMBEDDED_CORPUS, EMBEDDED_CORPUS_LABEL } from '../replay/embedded-corpus.js';
import type { BenchmarkSource, DatasetStream } from './run.js';

export interface SourceRequest {
  corpus?: string;
  /** `corpus` is the one shipped inside devboy (results name it `embedded`, not a path). */
  embedded?: boolean;
  provider?: ProviderName;
  owner?: string;
  repo?: string;
  project?: string;
  jql?: string;
  limit?: number;
  live?: Omit<LiveLoadOptions, 'provider' | 'owner' | 'repo' | 'project' | 'jql' | 'limit'>;
  onProgress?: (event: ProgressEvent) => void;
}

/** Flags only a live run reads: given to a corpus run they would be ignored, so they are refused. */
export interface LiveOnlyFlags {
  host?: string | undefined;
  token?: string | undefined;
  email?: string | undefined;
  jiraApi?: number | undefined;
}

/**
 * A live target: `--owner` and `--repo` (GitHub, GitLab), or for Jira `--project` (or `--repo`) or
 * `--jql`. Without one, `--provider` and `--project` narrow the corpus, embedded or `--corpus`.
 */
export function isLive(req: Pick<SourceRequest, 'corpus' | 'provider' | 'owner' | 'repo' | 'project' | 'jql'>): boolean {
  if (req.corpus) return false;
  if (req.owner && req.repo) return true;
  return req.provider === 'jira' && Boolean(req.project || req.repo || req.jql);
}

/**
 * Refuses, in one line, a source flag that would be ignored: `--owner` or `--repo` without the
 * other, `--jql` anywhere but a live Jira run, and the connection flags of a run that reads no API.
 */
export function checkSourceFlags(req: SourceRequest, live: LiveOnlyFlags = {}): void {
  const jiraRepo = req.provider === 'jira' && req.repo && !req.owner;
  if (req.owner && !req.repo) throw new UsageError('--owner needs --repo (GitHub owner and repository, or GitLab namespace and project)');
  if (req.repo && !req.owner && !jiraRepo)
    throw new UsageError('--repo needs --owner (GitHub owner and repository, or GitLab namespace and project)');
  if (req.jql && req.corpus) throw new UsageError('--jql reads Jira live; a corpus run narrows with --provider and --project');
  if (req.jql && req.provider !== 'jira') throw new UsageError('--jql is a Jira search: it needs --provider jira');
  if (!isLive(req)) {
    const given = (['host', 'token', 'email', 'jiraApi'] as const).find((k) => live[k] !== undefined);
    if (given)
      throw new UsageError(
        `--${given === 'jiraApi' ? 'jira-api' : given} is for live runs (--owner and --repo, or --provider jira with --project or --jql); this run reads the corpus`,
      );
  }
}

/**
 * Where the data comes from: a recorded corpus (every project, or narrowed by provider/project)
 * or a live provider. A live target (isLive) without a corpus reads live, `--owner/--repo` alone
 * as GitHub (as devboy-tools users type it); without one, `--provider` narrows the corpus as
 * `--project` does. With no source at all, the corpus embedded in devboy is the data, so the main
 * job runs offline with no flags.
 */
export async function loadBenchmarkData(
  req: SourceRequest,
): Promise<{ datasets: readonly Dataset[] | DatasetStream; source: BenchmarkSource }> {
  if (!req.corpus && !req.provider && req.owner && req.repo) return loadBenchmarkData({ ...req, provider: 'github' });
  if (!req.corpus && !isLive(req)) return loadBenchmarkData({ ...req, corpus: EMBEDDED_CORPUS, embedded: true });
  if (req.corpus) return loadCorpusData(req, req.corpus);
  if (!req.provider) throw new UsageError('unreachable: a live run without a provider');
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

/** A recorded corpus, every project or narrowed by provider and project, read a project at a time. */
async function loadCorpusData(req: SourceRequest, corpusDir: string): Promise<{ datasets: DatasetStream; source: BenchmarkSource }> {
  const project = req.project ?? (req.owner && req.repo ? `${req.owner}/${req.repo}`.split('/').join('__') : undefined);
  // Complete once the stream's last batch has been read (the result is made after that).
  const skipped: SkippedRecording[] = [];
  // Every other recording: measured, or read and not measured with why (filled as projects are read).
  const recordings: { measured: number; unmeasured: UnmeasuredRecording[] } = { measured: 0, unmeasured: [] };
  // Where devboy is installed means nothing to the reader: name the embedded corpus as such.
  const named = (err: unknown): unknown =>
    req.embedded && err instanceof UsageError && err.location.file === corpusDir
      ? new UsageError(err.message, { file: 'the embedded corpus' })
      : err;
  const opened = await openCorpusDatasets(corpusDir, {
    ...(req.provider ? { provider: req.provider } : {}),
    ...(project ? { project } : {}),
    ...(req.onProgress ? { onProgress: req.onProgress } : {}),
    onSkip: (s) => skipped.push(s),
    onRecording: (account) => {
      if (account.measured) recordings.measured++;
      else recordings.unmeasured.push({ file: account.file, cause: account.cause, reason: account.reason });
    },
  }).catch((err: unknown) => {
    throw named(err);
  });
  // Read a project at a time; a corpus that yields no dataset at all is found at its end.
  async function* batches(): AsyncGenerator<Dataset[]> {
    let seen = 0;
    try {
      for await (const batch of opened.batches) {
        seen += batch.length;
        yield batch;
      }
    } catch (err) {
      throw named(err);
    }
    if (seen === 0) throw noDatasets(corpusDir, [req.provider, project], skipped, recordings.unmeasured);
  }
  const corpus = req.embedded ? EMBEDDED_CORPUS_LABEL : corpusDir;
  return {
    datasets: { total: opened.projects, batches: batches() },
    source: {
      kind: 'corpus',
      corpus,
      ...(req.provider ? { provider: req.provider } : {}),
      ...(project ? { target: project } : {}),
      skipped,
      recordings,
    },
  };
}

/** Why a corpus (narrowed to `narrowed`: provider, project) gave no dataset: every recording skipped, or none measured. */
function noDatasets(
  corpusDir: string,
  narrowed: (string | undefined)[],
  skipped: readonly SkippedRecording[],
  unmeasured: readonly UnmeasuredRecording[],
): Error {
  if (skipped.length > 0) {
    return new DataError(
      `no dataset could be read: ${skipped.length} recording${skipped.length === 1 ? '' : 's'} skipped, the first ${skippedText(skipped[0]!)}`,
      { file: corpusDir },
    );
  }
  const what = narrowed.filter(Boolean).join('/');
  const first = unmeasured[0];
  const none = first
    ? `: ${unmeasured.length} recording${unmeasured.length === 1 ? '' : 's'} not measured, the first ${first.file}: ${first.reason}`
    : ` (devboy reads ${READ_KINDS})`;
  return new UsageError(`no datasets${what ? ` for ${what}` : ''} in the corpus${none}`, { file: corpusDir });
}
