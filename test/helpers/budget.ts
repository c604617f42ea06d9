import type { Format, FormatName } from '../../src/formats/types.js';
import { loadFormat } from '../../src/formats/registry.js';
import { FORMAT_NAMES } from '../../src/formats/types.js';
import { loadTokenizer } from '../../src/tokens/registry.js';
import type { Tokenizer, TokenizerName } from '../../src/tokens/types.js';
import { loadCorpusDatasets } from '../../src/providers/load.js';
import type { Dataset } from '../../src/model/index.js';
import { corpusDir } from './paths.js';

let datasets: Promise<Dataset[]> | undefined;

/** Every dataset of the shared corpus, replayed through the real clients once per test process. */
export function corpusDatasets(): Promise<Dataset[]> {
  datasets ??= loadCorpusDatasets(corpusDir());
  return datasets;
}

export async function allFormats(): Promise<Record<FormatName, Format>> {
  const out = {} as Record<FormatName, Format>;
  for (const name of FORMAT_NAMES) out[name] = await loadFormat(name);
  return out;
}

/** A tokenizer and a count that remembers what it counted, as the benchmark's does. */
export async function memoTokenizer(name: TokenizerName): Promise<{ tokenizer: Tokenizer; count: (text: string) => number }> {
  const tokenizer = await loadTokenizer(name);
  const memo = new Map<string, number>();
  return {
    tokenizer,
    count: (text) => {
      let n = memo.get(text);
      if (n === undefined) {
        n = tokenizer.count(text);
        memo.set(text, n);
      }
      return n;
    },
  };
}

export { datasetBudgetInput as budgetInput } from '../../src/budget/respond-within-budget.js';

/** How a model item is named in a response: its key, id or path. */
export function itemName(item: object): string {
  const o = item as Record<string, unknown>;
  return String(o['key'] ?? o['file_path'] ?? o['id']);
}

export function datasetName(d: Dataset): string {
  return `${d.provider}/${d.project} ${d.label}`;
}

/** The encoded items of a response, without the chunk index or trim note that follow them. */
export function responseBody(content: string): string {
  const at = content.search(/\n\n\[(chunks|trimmed to fit)[\] ]/);
  return at < 0 ? content : content.slice(0, at);
}
