import { join } from 'node:path';
import type { HttpOptions, TransportHooks } from '../http/transport.js';
import { DataError, DevboyError, UsageError } from '../errors.js';
import {
  listCorpusProjects,
  readCorpusProject,
  scanCorpus,
  type CorpusProject,
  type SkippedRecording,
  type UnmeasuredCause,
  type UnmeasuredRecording,
} from '../replay/corpus.js';
import type { CorpusEntry } from '../replay/exchange.js';
import { ReplayServer, type Fault } from '../replay/server.js';
import { pathAndQuery, planProject, type ProjectPlan } from './corpus-plan.js';
import { noRecordingsError } from './corpus-list.js';
import type { Dataset, ProviderName } from '../model/index.js';
import { openClient, resolveCredentials } from './client.js';
import type { CredentialOptions } from './credentials.js';
import { alongsideDataset, sortDatasets, toDataset } from './dataset.js';
import { isProviderName, PROVIDER_NAMES, PROVIDERS } from './registry.js';
import type { CallResult, PagingPolicy, ProgressEvent } from './types.js';
import type { CompletedExchange } from '../http/transport.js';

export interface CorpusLoadOptions {
  provider?: ProviderName;
  /** A project folder name, e.g. `betamaxpy__betamax`. */
  project?: string;
  onProgress?: (event: ProgressEvent) => void;
  http?: HttpOptions;
  /** Faults the replay server answers with first (tests). */
  faults?: readonly Fault[];
  /**
   * Go on past recordings that cannot be read or replayed, reporting each here. Without it, the
   * first one throws (a corpus the caller controls, such as the embedded one, must be whole).
   */
  onSkip?: (skipped: SkippedRecording) => void;
  /**
   * Every other recording, once, project by project in file order: it fed a dataset (measured), or
   * it was read but is not measured, and why. With onSkip, every recording is accounted for.
   */
  onRecording?: (account: RecordingAccount) => void;
}

/** Corpus replay never follows more pages than this from one first page. */
const MAX_REPLAY_PAGES = 100;

/**
 * Every dataset a corpus holds, read through the real client libraries from a loopback replay
 * server (one per project, started and stopped here). Datasets with no items are left out.
 * The order is stable: provider, project, kind, label.
 */
export async function loadCorpusDatasets(corpusDir: string, options: CorpusLoadOptions = {}): Promise<Dataset[]> {
  const scan = await scanCorpus(corpusDir, { ...corpusFilter(options), providers: PROVIDER_NAMES });
  const skip = skipper(corpusDir, options);
  for (const s of scan.skipped) skip(s);
  const projects = scan.projects;
  if (projects.length === 0 && (options.provider || options.project)) throw await noRecordingsError(corpusDir, options);
  const datasets: Dataset[] = [];
  for (const project of projects) datasets.push(...(await replayProject(project, options, skip)));
  return sortDatasets(datasets);
}

/**
 * The datasets of loadCorpusDatasets, in the same order, one project at a time: a project's
 * recordings are read when its datasets are asked for, so a large corpus is never in memory whole.
 * Skipped recordings reach onSkip in loadCorpusDatasets' order (those that cannot be read, then
 * those of unknown providers, then those that cannot be replayed), after the last batch; without
 * onSkip the first one throws when it is met.
 */
export async function openCorpusDatasets(
  corpusDir: string,
  options: CorpusLoadOptions = {},
): Promise<{ projects: number; batches: AsyncIterable<Dataset[]> }> {
  const listing = await listCorpusProjects(corpusDir, { ...corpusFilter(options), providers: PROVIDER_NAMES });
  const refs = listing.projects.filter((r) => isProviderName(r.provider));
  const filtered = Boolean(options.provider || options.project);
  if (refs.length === 0 && filtered) throw await noRecordingsError(corpusDir, options);
  const skip = skipper(corpusDir, options);
  if (!options.onSkip) for (const s of listing.skipped) skip(s);
  const unreadable: SkippedRecording[] = [];
  const unreplayable: SkippedRecording[] = [];
  async function* batches(): AsyncGenerator<Dataset[]> {
    let read = 0;
    for (const ref of refs) {
      const { project, skipped } = await readCorpusProject(corpusDir, ref);
      for (const s of skipped) {
        if (options.onSkip) unreadable.push(s);
        else skip(s);
      }
      if (!project) continue;
      read++;
      // Projects come in sorted order, so sorting each one sorts the whole.
      yield sortDatasets(
        await replayProject(project, options, (s) => {
          if (options.onSkip) unreplayable.push(s);
          else skip(s);
        }),
      );
    }
    for (const s of [...unreadable, ...listing.skipped, ...unreplayable]) skip(s);
    if (read === 0 && filtered) throw await noRecordingsError(corpusDir, options);
  }
  return { projects: refs.length, batches: batches() };
}

function corpusFilter(options: CorpusLoadOptions): { provider?: ProviderName; project?: string } {
  return { ...(options.provider ? { provider: options.provider } : {}), ...(options.project ? { project: options.project } : {}) };
}

/** What to do with a recording that cannot be used: report it, or without onSkip, throw. */
function skipper(corpusDir: string, options: CorpusLoadOptions): (s: SkippedRecording) => void {
  return (s) => {
    if (!options.onSkip)
      throw new DataError(s.reason, {
        file: join(corpusDir, s.file),
        ...(s.line ? { line: s.line } : {}),
        ...(s.col ? { col: s.col } : {}),
      });
    options.onSkip(s);
  };
}

/** One project's datasets, replayed through the real client from a loopback server started and stopped here. */
async function replayProject(
  { provider, project, entries }: CorpusProject,
  options: CorpusLoadOptions,
  skip: (s: SkippedRecording) => void,
): Promise<Dataset[]> {
  if (!isProviderName(provider)) return [];
  const datasets: Dataset[] = [];
  options.onProgress?.({ type: 'project', provider, project });
  const server = await ReplayServer.start({ entries, ...(options.faults ? { faults: options.faults } : {}) });
  try {
    const origin = originOf(entries[0]!.exchange.request.url);
    const client = await openClient(provider, {
      apiUrl: server.url,
      // Links in items point where the recording was made, not at the loopback server.
      ...(origin ? { browseBase: origin } : {}),
      ...(options.http ? { http: options.http } : {}),
      hooks: progressHooks(options.onProgress),
    });
    const paging: PagingPolicy = {
      maxPages: MAX_REPLAY_PAGES,
      maxItems: Number.POSITIVE_INFINITY,
      canFetch: (url) => server.find('GET', url) !== undefined,
    };
    const plan = planProject(provider, entries);
    const ledger = new RecordingLedger();
    for (const planned of plan.datasets) {
      const results: CallResult[] = [];
      // The recordings each call was answered with: they feed the dataset when the call gave items.
      const answeredBy: string[][] = [];
      const start = server.answered.length;
      try {
        for (const call of planned.calls) {
          const mark = server.answered.length;
          results.push(await client.run(call, paging));
          answeredBy.push(server.answered.slice(mark));
        }
      } catch (err) {
        if (!(err instanceof DevboyError)) throw err;
        // The recording's own URL names the request; the loopback server's address means nothing to a reader.
        const failed = planned.files[0]!;
        skip({ file: failed, reason: err.message.replaceAll(server.url, '') });
        ledger.skipped(failed);
        for (const file of [...planned.files, ...server.answered.slice(start)])
          ledger.note(file, 'dataset-failed', `part of the dataset of ${failed}, which could not be replayed (skipped)`);
        continue;
      }
      const kind = (results.length === 1 ? results[0]!.kind : undefined) ?? planned.kind;
      const kept = addDataset(datasets, toDataset(provider, project, kind, planned.label, results), options.onProgress);
      results.forEach((result, i) => {
        // The items of another kind the answer held (a mixed issues list's pull requests) feed a dataset of their own.
        const other = alongsideDataset(provider, project, planned.label, result);
        const otherKept = other !== undefined && addDataset(datasets, other, options.onProgress);
        const fed = (kept && result.items.length > 0) || otherKept;
        for (const file of answeredBy[i]!) {
          if (fed) ledger.measured(file);
          else ledger.note(file, 'no-items', result.leftOut ?? 'its answer holds no items (an empty list)');
        }
      });
    }
    if (options.onRecording) for (const account of ledger.accounts(entries, plan)) options.onRecording(account);
  } finally {
    await server.close();
  }
  return datasets;
}

export type RecordingAccount = { file: string; measured: true } | (UnmeasuredRecording & { measured: false });

/**
 * What became of each recording of one project's replay: it fed a dataset, or the first reason it
 * did not. A recording that fed one dataset is measured even if another of its calls gave nothing
 * (a Jira issue with no comments); one whose dataset failed is reported by the skip alone.
 */
class RecordingLedger {
  private readonly fed = new Set<string>();
  private readonly failed = new Set<string>();
  private readonly why = new Map<string, UnmeasuredRecording>();

  measured(file: string): void {
    this.fed.add(file);
  }

  skipped(file: string): void {
    this.failed.add(file);
  }

  note(file: string, cause: UnmeasuredCause, reason: string): void {
    if (!this.why.has(file)) this.why.set(file, { file, cause, reason });
  }

  /** Every recording of the project in file order, but those reported as skipped and not measured. */
  accounts(entries: readonly CorpusEntry[], plan: ProjectPlan): RecordingAccount[] {
    const notPlanned = new Map(plan.notPlanned.map((u) => [u.file, u]));
    const laterPages = new Set(plan.laterPages);
    const out: RecordingAccount[] = [];
    for (const { file } of entries) {
      if (this.fed.has(file)) out.push({ file, measured: true });
      else if (this.failed.has(file)) continue;
      else {
        const why =
          this.why.get(file) ??
          notPlanned.get(file) ??
          (laterPages.has(file)
            ? { file, cause: 'unreached-api-page' as const, reason: 'a later API page no first API page in the corpus leads to' }
            : { file, cause: 'answered-by-another' as const, reason: 'its request is answered by another recording (the matching rule)' });
        out.push({ ...why, measured: false });
      }
    }
    return out;
  }
}

export interface LiveLoadOptions extends CredentialOptions {
  provider: ProviderName;
  owner?: string;
  repo?: string;
  /** Jira project key (also the dataset's project name). */
  project?: string;
  /** Jira: the search; default `project = KEY ORDER BY created DESC`. */
  jql?: string;
  /** Issues and pull/merge requests to fetch (page size up to 100). Default 30. */
  limit?: number;
  /** How many pull/merge requests (Jira: issues) get their diffs, comments and discussions fetched. Default 3. */
  details?: number;
  http?: HttpOptions;
  onProgress?: (event: ProgressEvent) => void;
  /** Every final HTTP exchange with its body (what `record` writes). */
  onExchange?: (exchange: CompletedExchange) => void;
}

/** Datasets read from the live provider API, in the same order and shape as corpus mode. */
export async function loadLiveDatasets(options: LiveLoadOptions): Promise<Dataset[]> {
  const credentials = resolveCredentials(options.provider, options);
  const limit = positive(options.limit ?? 30, '--limit');
  const details = Math.max(0, Math.floor(options.details ?? 3));
  const hooks = progressHooks(options.onProgress, options.onExchange);
  const module = PROVIDERS[options.provider];
  const client = await module.openClient({
    apiUrl: credentials.apiUrl,
    ...(credentials.token ? { token: credentials.token } : {}),
    ...(credentials.email ? { email: credentials.email } : {}),
    ...(options.http ? { http: options.http } : {}),
    hooks,
  });
  const project = module.projectName(options);
  options.onProgress?.({ type: 'project', provider: options.provider, project });
  const results = await module.runLivePlan(client, {
    ...(options.owner ? { owner: options.owner } : {}),
    ...(options.repo ? { repo: options.repo } : {}),
    ...(options.project ? { project: options.project } : {}),
    ...(options.jql ? { jql: options.jql } : {}),
    limit,
    details,
    ...(credentials.apiVersion !== undefined ? { apiVersion: credentials.apiVersion } : {}),
  });
  const datasets: Dataset[] = [];
  for (const { kind, result } of results) {
    const label = `GET ${pathAndQuery(result.requests[0] ?? '')}`;
    addDataset(datasets, toDataset(options.provider, project, kind, label, [result]), options.onProgress);
    // As a replay of the recording measures them: a mixed issues list's pull requests, beside the /pulls list.
    const other = alongsideDataset(options.provider, project, label, result);
    if (other) addDataset(datasets, other, options.onProgress);
  }
  return sortDatasets(datasets);
}

/** The project name a live read's datasets get (`owner__repo`, or the Jira key), as in corpus folder names. */
export function liveProjectName(options: Pick<LiveLoadOptions, 'provider' | 'owner' | 'repo' | 'project'>): string {
  return PROVIDERS[options.provider].projectName(options);
}

/** Adds the dataset unless it has no items; whether it did. */
function addDataset(datasets: Dataset[], dataset: Dataset, onProgress: CorpusLoadOptions['onProgress']): boolean {
  if (dataset.result.items.length === 0) return false;
  datasets.push(dataset);
  onProgress?.({
    type: 'dataset',
    provider: dataset.provider,
    project: dataset.project,
    kind: dataset.kind,
    label: dataset.label,
    items: dataset.result.items.length,
  });
  return true;
}

function progressHooks(onProgress: CorpusLoadOptions['onProgress'], onExchange?: (e: CompletedExchange) => void): TransportHooks {
  return {
    onRetry: (event) => onProgress?.({ type: 'retry', ...event }),
    onExchange: (exchange) => {
      onProgress?.({ type: 'request', method: exchange.method, url: exchange.url, status: exchange.status });
      onExchange?.(exchange);
    },
  };
}

function originOf(url: string): string | undefined {
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}

function positive(value: number, flag: string): number {
  if (!Number.isInteger(value) || value < 1) throw new UsageError(`${flag} must be a whole number of at least 1`);
  return value;
}
