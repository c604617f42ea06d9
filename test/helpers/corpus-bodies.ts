import { readCorpus } from '../../src/replay/corpus.js';
import type { RecordedExchange } from '../../src/replay/exchange.js';
import { corpusDir } from './paths.js';

export type CorpusExchange = RecordedExchange & { file: string };

let cache: Promise<CorpusExchange[]> | undefined;

/** Every recorded exchange of the shared corpus, read once per test process. */
export function corpusExchanges(): Promise<CorpusExchange[]> {
  cache ??= readCorpus(corpusDir()).then((projects) => projects.flatMap((p) => p.entries.map((e) => ({ ...e.exchange, file: e.file }))));
  return cache;
}
