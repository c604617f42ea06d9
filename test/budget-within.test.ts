import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { buildResponse } from '../src/budget/response-request.js';
import { respondWithinBudget } from '../src/budget/respond-within-budget.js';
import { DataError } from '../src/errors.js';
import { exactFormats } from '../src/formats/info.js';
import { FORMAT_NAMES, type Format, type FormatName } from '../src/formats/types.js';
import { FORMAT_METADATA_FIELDS } from '../src/metadata/format-metadata.js';
import { readResponse } from '../src/providers/response.js';
import type { Dataset } from '../src/model/index.js';
import type { TokenizerName } from '../src/tokens/types.js';
import { allFormats, budgetInput, corpusDatasets, datasetName, memoTokenizer, responseBody } from './helpers/budget.js';
import { CORPUS_DIR } from './helpers/recordings.js';
import { FULL_SUITE, sample, sampleFormats, sampleShare } from './helpers/sampling.js';

const BUDGETS = [300, 500, 1000, 2000, 4000, 8000];
const LOSSLESS: FormatName[] = exactFormats();

let datasets: Dataset[];
let formats: Record<FormatName, Format>;

before(async () => {
  datasets = await corpusDatasets();
  formats = await allFormats();
});

/** Run the pipeline and check what every response must be; returns how many were chunked. */
async function checkGrid(
  tokenizerName: TokenizerName,
  sets: Dataset[],
  budgets: number[],
  names: readonly FormatName[],
): Promise<{ runs: number; chunked: number; trimmed: number }> {
  const { tokenizer, count } = await memoTokenizer(tokenizerName);
  let runs = 0;
  let chunked = 0;
  let trimmed = 0;
  for (const d of sets) {
    for (const format of names.map((n) => formats[n])) {
      for (const budget of budgets) {
        const where = `${datasetName(d)} as ${format.name} in ${budget} ${tokenizerName} tokens`;
        const r = respondWithinBudget(budgetInput(d), { format, tokenizer, count, budget });
        runs++;
        const real = tokenizer.count(r.content);
        assert.ok(real <= budget, `${where}: ${real} tokens`);
        const m = r.metadata;
        assert.deepEqual(Object.keys(m), [...FORMAT_METADATA_FIELDS], where);
        assert.equal(m.estimated_tokens, real, where);
        assert.equal(m.tokenizer, tokenizerName);
        assert.equal(m.format, format.name);
        assert.equal(m.total_items, d.result.items.length, where);
        assert.equal(m.included_items, r.included.length, where);
        assert.equal(m.output_chars, Buffer.byteLength(r.content), where);
        assert.equal(m.chunked, m.total_chunks > 1, where);
        assert.equal(new Set(r.included).size, r.included.length, `${where}: an item twice`);
        if (m.chunked) {
          chunked++;
          assert.match(r.content, /\n\n\[chunks\] \d+\/\d+ .* in \d+ chunks[^\n]*\n/, where);
          assert.match(r.content, /^chunk 1 \(offset=0, limit=\d+\).* << this response$/m, where);
          assert.match(r.content, /\n\[\/chunks\]\n/, where);
        }
        if (m.truncated) trimmed++;
        else assert.equal(m.pre_trim_chars, m.output_chars, where);
        if (LOSSLESS.includes(format.name)) {
          const body = format.decode(responseBody(r.content));
          assert.ok(Array.isArray(body) && body.length === r.included.length, `${where}: the body decodes to the included items`);
        }
      }
    }
  }
  return { runs, chunked, trimmed };
}

describe('every response is within budget under the tokenizer it was given (corpus)', () => {
  it('o200k_base: every list dataset (a 24th of them in the fast suite), every format, budgets 300 to 8000', async () => {
    // Offset 22: lists of 30, 4, 3 and 1 items, chunked as often (12 responses) as offset 0 was, in a
    // quarter of its time (offset 0's search of 55 issues takes 1.3 s).
    const sets = sample(datasets, 24, 22);
    const names = sampleFormats(FORMAT_NAMES, 0);
    // The fast suite checks each dataset at every other budget, alternating which half: every budget
    // is still checked, on half of the sample's lists.
    const budgetsOf = (k: number) => (FULL_SUITE ? BUDGETS : BUDGETS.filter((_, b) => b % 2 === k % 2));
    let runs = 0;
    let chunked = 0;
    let trimmed = 0;
    for (const [k, d] of sets.entries()) {
      const grid = await checkGrid('o200k_base', [d], budgetsOf(k), names);
      runs += grid.runs;
      chunked += grid.chunked;
      trimmed += grid.trimmed;
    }
    assert.equal(
      runs,
      sets.reduce((n, _, k) => n + names.length * budgetsOf(k).length, 0),
    );
    assert.ok(
      chunked > 100 * sampleShare(24) && trimmed > chunked,
      `${chunked} chunked and ${trimmed} trimmed responses: the grid exercises the pipeline`,
    );
  });

  it('cl100k_base: every third dataset, every format, three budgets', async () => {
    // In the fast suite its own 15th (offset 2), beside the o200k_base grid's 24th and the heuristic's
    // 15th: offset 0 holds the corpus's largest list (2 s).
    await checkGrid('cl100k_base', sample(datasets, FULL_SUITE ? 3 : 15, 2), [300, 1000, 4000], sampleFormats(FORMAT_NAMES, 1));
  });

  it('heuristic: every third dataset, every format, three budgets (an estimate, and labelled so)', async () => {
    const { tokenizer } = await memoTokenizer('heuristic');
    assert.equal(tokenizer.estimate, true);
    await checkGrid('heuristic', sample(datasets, FULL_SUITE ? 3 : 15, 1), [300, 1000, 4000], sampleFormats(FORMAT_NAMES, 2));
  });

  it('raw list bodies through devboy format: every recorded list the corpus answers with (a 20th in the fast suite), every format', async () => {
    // Offset 9: GitHub and GitLab lists of 3 to 20 items, a quarter of the time of offset 0 (two
    // octokit lists of 30 items, about 100 KB each, through every format at three budgets).
    const manifest = sample((await readFile(join(CORPUS_DIR, 'MANIFEST.tsv'), 'utf8')).trim().split('\n').slice(1), 20, 9);
    const { tokenizer, count } = await memoTokenizer('o200k_base');
    let lists = 0;
    for (const line of manifest) {
      const [file, , , method, , status, , bytes] = line.split('\t');
      if (method !== 'GET' || !status!.startsWith('2')) continue;
      // The fast suite leaves the few recordings of hundreds of KB to the corpus suite (as budget-chunks does).
      if (!FULL_SUITE && Number(bytes) >= 150_000) continue;
      const text = await readFile(join(CORPUS_DIR, file!), 'utf8');
      let read;
      try {
        read = readResponse(JSON.parse(text), file!);
      } catch (err) {
        assert.ok(
          err instanceof DataError && /not a list devboy models|cannot tell/.test(err.message),
          `${file}: ${(err as Error).message}`,
        );
        continue;
      }
      if (read.items.length < 2) continue;
      // The body alone, as a tool would receive it.
      const body = JSON.stringify((JSON.parse(text) as { response: { body: unknown } }).response.body);
      const inputs = [
        { name: file!, text },
        { name: `${file} (body)`, text: body },
      ];
      for (const [k, to] of sampleFormats(FORMAT_NAMES, lists++).entries()) {
        for (const [b, budget] of [300, 1000, 4000].entries()) {
          // Once read, the body alone goes through the same pipeline as the recording: the fast suite
          // reads it at one budget per format, in turn.
          for (const input of FULL_SUITE || b === k % 3 ? inputs : inputs.slice(0, 1)) {
            const out = await buildResponse({ input, to, tokenizer: 'o200k_base', budget, count });
            assert.ok(tokenizer.count(out.content) <= budget, `${input.name} as ${to} in ${budget}`);
            assert.equal(out.metadata.total_items, read.items.length);
          }
        }
      }
    }
    assert.ok(lists >= 40 * sampleShare(20), `${lists} recorded lists`);
  });

  it('at the budget edge: a response of exactly the budget is whole; one token less and it is chunked, every chunk within', async () => {
    const { tokenizer, count } = await memoTokenizer('o200k_base');
    // Offset 15: lists of 30, 15 and 6 items, a fifth of the time of offset 0 (a search of 55 issues).
    const lists = sample(
      datasets.filter((d) => d.result.items.length >= 2),
      FULL_SUITE ? 1 : 30,
      15,
    );
    for (const d of lists) {
      for (const format of sampleFormats(FORMAT_NAMES, 3).map((n) => formats[n])) {
        const whole = respondWithinBudget(budgetInput(d), { format, tokenizer, count });
        const tokens = tokenizer.count(whole.content);
        const where = `${datasetName(d)} as ${format.name} (${tokens} o200k_base tokens whole)`;
        const at = respondWithinBudget(budgetInput(d), { format, tokenizer, count, budget: tokens });
        assert.equal(at.content, whole.content, `${where}: at exactly its size it is returned whole`);
        const under = respondWithinBudget(budgetInput(d), { format, tokenizer, count, budget: tokens - 1 });
        assert.ok(
          tokenizer.count(under.content) <= tokens - 1,
          `${where}: one token under, the response has ${tokenizer.count(under.content)}`,
        );
        assert.notEqual(under.content, whole.content, where);
      }
    }
  });

  it('when not even one item fits, it says so with a DataError and returns nothing', async () => {
    const { tokenizer } = await memoTokenizer('o200k_base');
    const d = datasets.find((x) => x.kind === 'issues' && x.result.items.length > 10)!;
    assert.throws(
      () => respondWithinBudget(budgetInput(d), { format: formats.toon, tokenizer, budget: 25 }),
      (err: unknown) => err instanceof DataError && err.exitCode === 1 && /nothing fits in 25 o200k_base tokens/.test(err.message),
    );
  });

  it('the savings baseline is the included items as the provider sent them (GitHub threads: their review comments)', async () => {
    const file = 'github/octokit__octokit.rb/024_GET_repos_octokit_octokit_rb_pulls_comments.json';
    const text = await readFile(join(CORPUS_DIR, file), 'utf8');
    const { tokenizer, count } = await memoTokenizer('o200k_base');
    const out = await buildResponse({ input: { name: file, text }, to: 'toon', tokenizer: 'o200k_base', budget: 400, count });
    assert.equal(out.kind, 'discussions');
    assert.ok(out.metadata.chunked && out.included.length < out.metadata.total_items!);
    const raw = (JSON.parse(text) as { response: { body: { id: number }[] } }).response.body;
    const threads = readResponse(JSON.parse(text), file).items as readonly { comments: { id: string }[] }[];
    assert.equal(readResponse(JSON.parse(text), file).rawAligned, false);
    const ids = new Set(out.included.flatMap((i) => threads[i]!.comments.map((c) => c.id)));
    const baseline = tokenizer.count(JSON.stringify(raw.filter((c) => ids.has(String(c.id)))));
    assert.equal(out.metadata.baseline, 'json_compact');
    // FormatMetadata fractions are rounded to six decimals (roundFraction), exactly.
    assert.equal(out.metadata.encoder_savings_pct, Math.round((1 - out.metadata.estimated_tokens / baseline) * 1e6) / 1e6);
    assert.equal(out.metadata.combined_savings_pct, out.metadata.encoder_savings_pct);
    assert.equal(out.metadata.dedup_savings_pct, 0);
  });

  it('without a budget, or when everything fits, the output is the plain encoding of every item at full detail', async () => {
    const { tokenizer } = await memoTokenizer('o200k_base');
    const d = datasets.find((x) => x.kind === 'diffs')!;
    const r = respondWithinBudget(budgetInput(d), { format: formats['json-compact'], tokenizer });
    assert.equal(r.content, JSON.stringify(d.result.items));
    assert.equal(r.metadata.truncated, false);
    assert.equal(r.metadata.total_chunks, 1);
    assert.ok(r.metadata.encoder_savings_pct > 0, 'normalized items are smaller than the provider JSON');
  });
});
