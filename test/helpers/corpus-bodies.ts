import { readCorpus, type Exchange } from '../../src/corpus/exchanges.js';
import { corpusDir } from './paths.js';

let cache: Promise<Exchange[]> | undefined;

/** Every recorded exchange of the shared corpus, read once per test process. */
export function corpusExchanges(): Promise<Exchange[]> {
  cache ??= readCorpus(corpusDir());
  return cache;
}
