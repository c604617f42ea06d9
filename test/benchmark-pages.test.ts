import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { PageRenders, pagesAtBudget, type Pages } from '../src/benchmark/pages.js';
import { planChunks } from '../src/budget/plan-chunks.js';
import { verifyRoundTrip } from '../src/formats/verify.js';
import { lossReport, unreadableLoss, type LossReport } from '../src/formats/loss.js';
import type { JsonValue } from '../src/json/types.js';
import type { Format, FormatName } from '../src/formats/types.js';
import { FORMAT_NAMES } from '../src/formats/types.js';
import type { Dataset } from '../src/model/index.js';
import type { Tokenizer } from '../src/tokens/types.js';
import { datasetAtLevel } from '../src/trim/levels.js';
import { allFormats, corpusDatasets, memoTokenizer } from './helpers/budget.js';
import { sample, sampleFormats } from './helpers/sampling.js';

// The benchmark plans each list's pages under every tokenizer with one set of chunk texts and page
// checks (PageRenders): the pages and losses must be those of planning each one alone, as the
// budget pipeline plans them, each page encoded and checked on its own.

function reference(
  ds: Dataset,
  items: JsonValue[],
  format: Format,
  tokenizer: Tokenizer,
  count: (text: string) => number,
  budget: number,
): Pages {
  const plan = planChunks(items, {
    kind: ds.kind,
    format,
    tokenizer,
    count,
    budget,
    level: 'raw',
    ...(items.length === ds.result.items.length ? { models: ds.result.items } : {}),
  });
  if (plan.total_chunks <= 1 || format.roundTrip === 'exact') return { pages: plan.total_chunks };
  for (const [k, c] of plan.chunks.entries()) {
    const page = items.slice(c.offset, c.offset + c.limit);
    const check = verifyRoundTrip(format, page);
    if (!check.lossless) {
      let report: LossReport;
      try {
        report = lossReport(page, format.decode(format.encode(page)));
      } catch (err) {
        report = unreadableLoss(page, (err as Error).message);
      }
      return { pages: plan.total_chunks, loss: `page ${k + 1} of ${plan.chunks.length}: ${check.reason}`, report };
    }
  }
  return { pages: plan.total_chunks };
}

let datasets: Dataset[];
let formats: Record<FormatName, Format>;
let tokenizers: { tokenizer: Tokenizer; count: (text: string) => number }[];

before(async () => {
  datasets = await corpusDatasets();
  formats = await allFormats();
  // Counts remembered as the benchmark's are: the plans below count many of the same texts.
  tokenizers = [await memoTokenizer('heuristic'), await memoTokenizer('o200k_base')];
});

describe('benchmark pages: chunk texts shared by the tokenizers', () => {
  it('give the pages and the page losses of each tokenizer planning alone', () => {
    let multiPage = 0;
    // Offset 4: threads, issues and comments in 36 multi-page plans, two formats' page losses among
    // them, in a fifth of the time of offset 5 (betamax's and ALOY's largest issue lists).
    for (const [i, ds] of sample(datasets, 36, 4).entries()) {
      const items = datasetAtLevel(ds, 'raw');
      // A baseline per list, in turn.
      for (const name of sampleFormats(FORMAT_NAMES, i)) {
        const format = formats[name];
        const text = format.encode(items);
        const renders = new PageRenders(format, items);
        for (const { tokenizer, count } of tokenizers) {
          const input = {
            kind: ds.kind,
            items,
            text,
            models: ds.result.items,
            budget: 2000,
            format,
            tokenizer,
            count,
          };
          const alone = reference(ds, items, format, tokenizer, count, input.budget);
          assert.deepEqual(pagesAtBudget(input), alone, `${ds.project} ${ds.kind} ${name} ${tokenizer.name} alone`);
          const shared = pagesAtBudget({ ...input, renders });
          assert.deepEqual(shared, alone, `${ds.project} ${ds.kind} ${name} ${tokenizer.name}`);
          // Unchecked pages: the same count, and no loss reported.
          assert.deepEqual(pagesAtBudget({ ...input, renders, checkPages: false }), { pages: alone.pages });
          if (alone.pages > 1) multiPage++;
        }
      }
    }
    assert.ok(multiPage > 10, `lists planned in several pages: ${multiPage}`);
  });
});
