import { UsageError } from '../errors.js';
import type { DatasetKind, ProviderName } from '../model/index.js';
import { DATASET_KINDS } from '../model/index.js';
import { listCorpus } from '../providers/corpus-list.js';
import { EMBEDDED_CORPUS, EMBEDDED_CORPUS_LABEL } from '../replay/embedded-corpus.js';
import { corpusListJson, corpusListText } from '../report/corpus-list.js';

/** `benchmark --list` with its flags parsed: which corpus (default: the embedded one), narrowed how, and as JSON or text. */
export interface CorpusListingRequest {
  corpus?: string | undefined;
  provider?: ProviderName | undefined;
  project?: string | undefined;
  kinds: DatasetKind[];
  json: boolean;
  /** The terminal's columns, for the text. */
  width?: number | undefined;
}

/** What a corpus holds and a run of it would measure, as `devboy benchmark --list` prints it. */
export async function corpusListing(req: CorpusListingRequest): Promise<string> {
  const dir = req.corpus ?? EMBEDDED_CORPUS;
  const listing = await listCorpus(dir, {
    ...(req.provider ? { provider: req.provider } : {}),
    ...(req.project ? { project: req.project } : {}),
    ...(req.kinds.length < DATASET_KINDS.length ? { kinds: req.kinds } : {}),
  }).catch((err: unknown) => {
    // Where devboy is installed means nothing to the reader: name the embedded corpus as such.
    throw !req.corpus && err instanceof UsageError && err.location.file === dir
      ? new UsageError(err.message, { file: 'the embedded corpus' })
      : err;
  });
  return req.json
    ? corpusListJson(listing, req.corpus ?? EMBEDDED_CORPUS_LABEL)
    : corpusListText(listing, req.corpus ? `corpus ${req.corpus}` : 'the embedded corpus', req.width);
}
