import { readCorpus } from '../../src/replay/corpus.js';
import type { RecordedExchange } from '../../src/replay/exchange.js';
import type { Dataset } from '../../src/model/index.js';
import { corpusDatasets } from './budget.js';
import { corpusDir } from './paths.js';
import { FULL_SUITE, sample } from './sampling.js';

export type CorpusExchange = RecordedExchange & { file: string };

let cache: Promise<CorpusExchange[]> | undefined;

/** Every recorded exchange of the shared corpus, read once per test process. */
export function corpusExchanges(): Promise<CorpusExchange[]> {
  cache ??= readCorpus(corpusDir()).then((projects) => projects.flatMap((p) => p.entries.map((e) => ({ ...e.exchange, file: e.file }))));
  return cache;
}

/**
 * Corpus datasets read from exactly one recorded response, with that recording: the cases where
 * a file-reading command (format, stats) and the benchmark see the same bytes. A URL recorded more
 * than once (on different dates) is answered by the replay server's choice, so it is left out.
 */
export async function oneResponseDatasets(): Promise<{ dataset: Dataset; exchange: CorpusExchange }[]> {
  const labelOf = (url: string) => `GET ${new URL(url).pathname}${new URL(url).search}`;
  const all = await corpusExchanges();
  const counts = new Map<string, number>();
  for (const e of all) counts.set(labelOf(e.request.url), (counts.get(labelOf(e.request.url)) ?? 0) + 1);
  const exchanges = new Map(all.filter((e) => counts.get(labelOf(e.request.url)) === 1).map((e) => [labelOf(e.request.url), e]));
  return (await corpusDatasets()).flatMap((dataset) => {
    const exchange = exchanges.get(dataset.label);
    // joined single GETs and followed pages have no one response
    return dataset.requests.length === 1 && exchange ? [{ dataset, exchange }] : [];
  });
}

/**
 * Bodies up to this many characters of compact JSON: 186 of the corpus's 228, 14% of its text. The
 * other 42 (up to half a megabyte each) hold the rest, and a sweep's time grows with the text.
 */
const SMALL_BODY = 30_000;

/**
 * The exchanges a sweep over the corpus bodies checks: in the fast suite every `every`-th of those
 * whose body is at most 30,000 characters of compact JSON, so the sweep still meets many kinds of
 * response from every provider; every exchange in the corpus suite (DEVBOY_TEST_CORPUS=full).
 */
export async function sampledExchanges(every: number, offset = 0): Promise<CorpusExchange[]> {
  const all = await corpusExchanges();
  return FULL_SUITE
    ? all
    : sample(
        all.filter((e) => JSON.stringify(e.response.body).length <= SMALL_BODY),
        every,
        offset,
      );
}

/**
 * oneResponseDatasets as a sweep checks them: in the fast suite every `every`-th of those whose
 * response body is at most 30,000 characters of compact JSON (as sampledExchanges); all of them in
 * the corpus suite (DEVBOY_TEST_CORPUS=full).
 */
export async function sampledOneResponseDatasets(every: number, offset = 0): Promise<{ dataset: Dataset; exchange: CorpusExchange }[]> {
  const all = await oneResponseDatasets();
  return FULL_SUITE
    ? all
    : sample(
        all.filter((x) => JSON.stringify(x.exchange.response.body).length <= SMALL_BODY),
        every,
        offset,
      );
}
