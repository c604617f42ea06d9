import type { CompletedExchange } from '../http/transport.js';
import type { Dataset } from '../model/index.js';
import { resolveCredentials } from '../providers/client.js';
import { secretsOf } from '../providers/credentials.js';
import { loadLiveDatasets, type LiveLoadOptions } from '../providers/load.js';
import { PROVIDERS } from '../providers/registry.js';
import type { SkippedRecording } from '../replay/corpus.js';
import { toCorpusFile } from './corpus-file.js';
import { writeManifest, writeProjectAtomically } from './write.js';

export interface RecordOptions extends LiveLoadOptions {
  /** Corpus root: recordings go to `<outDir>/<provider>/<project>/`. */
  outDir: string;
  /** For provenance; defaults to the current time. */
  now?: () => Date;
}

export interface RecordResult {
  projectDir: string;
  files: string[];
  /** The datasets as read live; replaying `projectDir` yields the same. */
  datasets: Dataset[];
  /** Recordings under the output folder that MANIFEST.tsv leaves out because they cannot be read, with the reason. */
  unlisted: SkippedRecording[];
}

export const RECORDER = 'devboy record';

/**
 * Fetch live (as loadLiveDatasets does) and write every exchange in the corpus format, so a team
 * can freeze its own data for CI. Nothing is written unless every request succeeded.
 */
export async function recordLive(options: RecordOptions): Promise<RecordResult> {
  const exchanges: CompletedExchange[] = [];
  const datasets = await loadLiveDatasets({
    ...options,
    onExchange: (exchange) => {
      exchanges.push(exchange);
      options.onExchange?.(exchange);
    },
  });
  const module = PROVIDERS[options.provider];
  const secrets = secretsOf(resolveCredentials(options.provider, options));
  const project = module.projectName(options);
  const ctx = {
    provider: options.provider,
    project,
    sourceRepo: module.sourceRepo(options),
    recordedAt: (options.now?.() ?? new Date()).toISOString(),
    recorder: RECORDER,
    secrets,
  };
  const files = exchanges.map((exchange, i) => toCorpusFile(exchange, i, ctx));
  const projectDir = await writeProjectAtomically(options.outDir, options.provider, project, files);
  const unlisted = await writeManifest(options.outDir);
  return { projectDir, files: files.map((f) => f.name), datasets, unlisted };
}
