import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { budgetResponses, respondWithinBudget } from '../src/budget/respond-within-budget.js';
import { chunkResponse, planChunks } from '../src/budget/plan-chunks.js';
import { chunkSummary } from '../src/budget/chunks/summary.js';
import { readingOrder, STRATEGIES } from '../src/budget/strategies/strategy.js';
import { resolveStrategy } from '../src/budget/strategies/resolver.js';
import { UsageError } from '../src/errors.js';
import { FORMAT_NAMES, type Format, type FormatName } from '../src/formats/types.js';
import type { JsonObject } from '../src/json/types.js';
import { itemsOf, type Dataset } from '../src/model/index.js';
import { datasetAtLevel, itemsAtLevel, LEVELS } from '../src/trim/levels.js';
import { allFormats, budgetInput, corpusDatasets, datasetName, itemName, memoTokenizer, responseBody } from './helpers/budget.js';

import { FULL_SUITE, sample, sampleFormats, sampleShare } from './helpers/sampling.js';
let datasets: Dataset[];
let formats: Record<FormatName, Format>;
let o200k: Awaited<ReturnType<typeof memoTokenizer>>;

before(async () => {
  datasets = await corpusDatasets();
  formats = await allFormats();
  o200k = await memoTokenizer('o200k_base');
});

describe('--chunk walks through every item exactly once', () => {
  for (const [to, budget] of [
    ['toon', 300],
    ['json-compact', 500],
    ['stc', 1000],
    ['gcf', 400],
  ] as [FormatName, number][]) {
    it(`${to}, ${budget} o200k_base tokens: chunks 1..N of every corpus dataset (an eighth in the fast suite) hold every item once, in reading order`, () => {
      let walked = 0;
      // The fast suite walks an eighth of the datasets long enough to need chunks at this budget.
      for (const d of sample(
        datasets.filter((x) => FULL_SUITE || x.result.items.length >= 10),
        8,
        budget,
      )) {
        // One plan answers every chunk of the walk (that its chunk n is respondWithinBudget's with chunk n
        // is tested below): planning the list again for each chunk made the walk quadratic.
        const walk = budgetResponses(budgetInput(d), { format: formats[to], tokenizer: o200k.tokenizer, count: o200k.count, budget });
        const total = walk.totalChunks;
        if (total === 1) continue;
        walked++;
        const strategy = resolveStrategy(d.kind).strategy;
        const order = readingOrder(STRATEGIES[strategy].itemValues(itemsOf(d)));
        const seen: number[] = [];
        for (let n = 1; n <= total; n++) {
          const r = walk.chunk(n);
          const where = `${datasetName(d)} chunk ${n}/${total}`;
          assert.equal(r.metadata.chunk_number, n);
          assert.equal(r.metadata.total_chunks, total, `${where}: every chunk reports the same number of chunks`);
          assert.ok(o200k.tokenizer.count(r.content) <= budget, where);
          assert.match(
            r.content,
            new RegExp(`^chunk ${n} \\(offset=${seen.length}, limit=${r.included.length}\\).* << this response$`, 'm'),
            `${where}: the index marks this chunk`,
          );
          if (to !== 'gcf') {
            // The names in the content itself, not only what the pipeline says it included.
            const names = (formats[to].decode(responseBody(r.content)) as JsonObject[]).map(itemName);
            assert.deepEqual(
              names,
              r.included.map((i) => itemName(d.result.items[i]!)),
              where,
            );
          }
          seen.push(...r.included);
        }
        assert.deepEqual(seen, order, `${datasetName(d)}: the walk is the reading order, each item once`);
      }
      assert.ok(walked >= (FULL_SUITE ? 4 : 1), `${walked} datasets needed more than one chunk`);
    });
  }

  it('at 150 tokens the index shrinks to this chunk and the next, and the walk still covers every issue once', () => {
    // AC's search of 50 issues: 19 chunks in the brief form. ALOY's 150 walked 56, three times the time.
    const d = datasets.find((x) => x.project === 'AC' && x.kind === 'issues' && x.result.items.length === 50)!;
    const input = budgetInput(d);
    const options = { format: formats.toon, tokenizer: o200k.tokenizer, count: o200k.count, budget: 150 };
    const walk = budgetResponses(input, options);
    const first = walk.chunk(1);
    assert.equal(first.indexForm, 'brief');
    const seen: number[] = [];
    for (let n = 1; n <= first.metadata.total_chunks; n++) {
      const r = walk.chunk(n);
      assert.ok(o200k.tokenizer.count(r.content) <= 150);
      assert.match(
        r.content,
        n < first.metadata.total_chunks
          ? new RegExp(`\nnext: chunk ${n + 1} \\(offset=\\d+, limit=\\d+\\)\n`)
          : /<< this response\n\[\/chunks\]/,
      );
      seen.push(...r.included);
    }
    assert.deepEqual(
      seen,
      d.result.items.map((_, i) => i),
    );
  });

  it('budgetResponses encodes, counts and plans a list once, and answers each chunk exactly as respondWithinBudget does', () => {
    // GitLab's 6 release issues: 3 chunks at 120 tokens, 1 trimmed chunk at 150, whole without a budget.
    const d = datasets.find((x) => x.label === 'GET /api/v3/projects/13083/issues?labels=release')!;
    const input = budgetInput(d);
    const fullText = formats.toon.encode(itemsAtLevel(input, 'full'));
    let fullCounts = 0;
    const count = (t: string) => (t === fullText && fullCounts++, o200k.count(t));
    for (const [budget, chunks] of [
      [120, 3],
      [150, 1],
      [undefined, 1],
    ] as const) {
      const options = { format: formats.toon, tokenizer: o200k.tokenizer, count, ...(budget ? { budget } : {}) };
      fullCounts = 0;
      const walk = budgetResponses(input, options);
      assert.equal(walk.totalChunks, chunks, `budget ${budget}`);
      for (let n = 1; n <= chunks; n++) {
        const r = walk.chunk(n);
        assert.equal(r.metadata.total_chunks, chunks);
        assert.deepEqual(r, respondWithinBudget(input, { ...options, count: o200k.count, chunk: n }), `budget ${budget} chunk ${n}`);
      }
      assert.equal(fullCounts, 1, `budget ${budget}: the list at full detail is counted once for the whole walk`);
      assert.equal(walk.chunk(1).metadata.truncated, budget !== undefined);
      for (const n of [0, chunks + 1])
        assert.throws(
          () => walk.chunk(n),
          (err: unknown) => err instanceof UsageError && /^no chunk/.test(err.message),
        );
    }
  });

  it('asking for a chunk that does not exist is a usage error', () => {
    const d = datasets.find((x) => x.kind === 'issues' && x.result.items.length > 50)!;
    const r = respondWithinBudget(budgetInput(d), { format: formats.toon, tokenizer: o200k.tokenizer, count: o200k.count, budget: 500 });
    assert.throws(
      () =>
        respondWithinBudget(budgetInput(d), {
          format: formats.toon,
          tokenizer: o200k.tokenizer,
          count: o200k.count,
          budget: 500,
          chunk: r.metadata.total_chunks + 1,
        }),
      (err: unknown) => err instanceof UsageError && err.exitCode === 2 && /no chunk/.test(err.message),
    );
  });

  it('summaries in the index say what each chunk holds: key ranges and states', () => {
    const issues = datasets.find((x) => x.kind === 'issues' && x.result.items.length === 83)!;
    const r = respondWithinBudget(budgetInput(issues), {
      format: formats.toon,
      tokenizer: o200k.tokenizer,
      count: o200k.count,
      budget: 600,
    });
    assert.equal(r.indexForm, 'detailed');
    const entries = [...r.content.matchAll(/^chunk (\d+) \(offset=(\d+), limit=(\d+)\): (gh#\d+)…(gh#\d+): (.*?)( << this response)?$/gm)];
    assert.equal(entries.length, r.metadata.total_chunks);
    for (const e of entries) {
      const offset = Number(e[2]);
      const limit = Number(e[3]);
      const chunk = issues.result.items.slice(offset, offset + limit) as { key: string; state: string }[];
      assert.equal(e[4], chunk[0]!.key);
      assert.equal(e[5], chunk.at(-1)!.key);
      const closed = chunk.filter((i) => i.state === 'closed').length;
      assert.match(e[6]!, new RegExp(`\\b${closed} closed`));
    }
  });

  it('diff summaries group paths by directory and add up +/- (real PR files)', () => {
    const diffs = datasets.find((x) => x.label.includes('/pulls/2471/files'))!;
    const text = chunkSummary(itemsOf(diffs));
    assert.match(text, /github-graphql\/\* \(3\)/);
    const files = diffs.result.items as { additions: number; deletions: number }[];
    const plus = files.reduce((n, f) => n + f.additions, 0);
    const minus = files.reduce((n, f) => n + f.deletions, 0);
    assert.ok(text.endsWith(`; +${plus}/-${minus}`));
  });
});

describe('planChunks: the pages column', () => {
  it('returns 1 without packing when the whole encoding fits, and counts it once', () => {
    const d = datasets.find((x) => x.kind === 'diffs')!;
    const counted: string[] = [];
    const plan = planChunks(d.result.items, {
      kind: d.kind,
      format: formats.toon,
      tokenizer: o200k.tokenizer,
      budget: 100_000,
      level: 'full',
      count: (t) => (counted.push(t), o200k.count(t)),
    });
    assert.equal(plan.total_chunks, 1);
    assert.equal(plan.fits_whole, true);
    assert.equal(counted.length, 1);
  });

  // Each budget checks its own 18th of the datasets (offset 0, 1, 4). The offset of 8000 was 2 until the
  // corpus's search of pull requests became a dataset (issue 21 item 3), then 3 until the pull requests
  // of mixed issue lists became datasets of their own: each time that 18th was left with no list longer
  // than 8,000 tokens, so nothing to split; the 5th holds betamax's issues at raw level (21,152 tokens).
  for (const [b, budget] of [
    [0, 500],
    [1, 2000],
    [4, 8000],
  ] as const) {
    it(`every chunk's response is within ${budget} o200k_base tokens and the chunks tile the list, at every level and in every format (an 18th of the datasets in the fast suite)`, () => {
      let chunked = 0;
      let countedTokens = 0;
      let wholeTokens = 0;
      // The fast suite leaves the few raw bodies of hundreds of KB to the corpus suite.
      const sets = datasets.filter((d) => FULL_SUITE || JSON.stringify(d.raw).length < 150_000);
      for (const d of sample(sets, 18, b)) {
        for (const level of LEVELS) {
          const items = datasetAtLevel(d, level);
          for (const format of sampleFormats(FORMAT_NAMES, b).map((n) => formats[n])) {
            const options = {
              kind: d.kind,
              format,
              tokenizer: o200k.tokenizer,
              budget,
              level: 'raw' as const,
              models: d.result.items,
              count: o200k.count,
            };
            const distinct = new Map<string, number>();
            const plan = planChunks(items, {
              ...options,
              count: (t) => (distinct.has(t) || distinct.set(t, o200k.count(t)), distinct.get(t)!),
            });
            const where = `${datasetName(d)} ${level} ${format.name}`;
            let next = 0;
            for (const c of plan.chunks) {
              assert.equal(c.offset, next, where);
              assert.ok(c.limit >= 1, where);
              next += c.limit;
            }
            assert.equal(next, items.length, where);
            if (plan.fits_whole) {
              assert.equal(distinct.size, 1, `${where}: fits, counted once`);
              continue;
            }
            chunked++;
            const whole = o200k.count(format.encode(items));
            const counted = [...distinct.values()].reduce((a, b) => a + b, 0);
            // Cheap by contract: no re-encoding per item, about one count per chunk.
            assert.ok(counted <= 6 * whole + 10 * budget, `${where}: counted ${counted} tokens for a ${whole}-token list`);
            countedTokens += counted;
            wholeTokens += whole;
            plan.chunks.forEach((c, k) => {
              if (plan.oversized.includes(c.offset)) return; // an item too large for any response, counted in parts
              const text = chunkResponse(items, options, plan, k);
              assert.ok(o200k.tokenizer.count(text) <= budget, `${where} chunk ${k + 1}`);
            });
            const oversizedParts = plan.total_chunks - plan.chunks.length;
            assert.ok(oversizedParts >= 0 && (plan.oversized_items > 0 || oversizedParts === 0), where);
          }
        }
      }
      assert.ok(chunked > 50 * sampleShare(18), `${chunked} plans needed chunks`);
      // Over the whole corpus; a sample can hold more of the lists that cost most to split. The planner
      // packs once per form of the chunk index to find the fewest pages (docs/budget.md): 2.75x measured.
      assert.ok(
        !FULL_SUITE || countedTokens <= 3 * wholeTokens,
        `all plans together counted ${(countedTokens / wholeTokens).toFixed(2)}x the tokens of the lists they split`,
      );
    });
  }

  it('the list that costs most to split (Jira issues of very uneven size, standard level, 2,000 tokens) is planned within the counting contract in every format (CSV and TOON in the fast suite)', () => {
    // CSV counted 8x this list's tokens here: each round of the plain index filled every chunk to
    // a cap that left no room for the join margin, and guessed every item by bytes again.
    const d = datasets.find((x) => x.project === 'ALOY' && x.kind === 'issues' && x.label.includes('startAt=0&maxResults=50'))!;
    const items = datasetAtLevel(d, 'standard');
    // The fast suite plans it in CSV, the format that broke the contract here and still comes closest
    // to it (6.0x the list's tokens, the others 4.6x to 5.4x), and TOON, whose counts at this budget the
    // test of tighter budgets below reuses; the other formats' plans are held to the same contract by
    // the grids above, and this list's in every format by the corpus suite.
    const names = FULL_SUITE ? FORMAT_NAMES : (['csv', 'toon'] as const);
    for (const format of names.map((n) => formats[n])) {
      const distinct = new Map<string, number>();
      const plan = planChunks(items, {
        kind: d.kind,
        format,
        tokenizer: o200k.tokenizer,
        budget: 2000,
        level: 'raw',
        models: d.result.items,
        count: (t) => (distinct.has(t) || distinct.set(t, o200k.count(t)), distinct.get(t)!),
      });
      const whole = o200k.count(format.encode(items));
      const counted = [...distinct.values()].reduce((a, b) => a + b, 0);
      assert.ok(plan.total_chunks > 15, `${format.name}: ${plan.total_chunks} chunks`);
      assert.ok(counted <= 6 * whole + 10 * 2000, `${format.name}: counted ${counted} tokens for a ${whole}-token list`);
    }
  });

  it('cl100k_base and heuristic: every chunk response of every third dataset is within 2,000 tokens under that tokenizer', async () => {
    for (const name of ['cl100k_base', 'heuristic'] as const) {
      const t = await memoTokenizer(name);
      // The fast suite's 24th starts at offset 7: offset 0 is the corpus's largest list (500 KB of
      // issues, 2 s here), split at o200k_base by the walks above; offset 7 splits lists under both.
      for (const d of sample(datasets, FULL_SUITE ? 3 : 24, 7)) {
        for (const level of LEVELS) {
          const items = datasetAtLevel(d, level);
          for (const format of sampleFormats(FORMAT_NAMES, 3 + (name === 'heuristic' ? 1 : 0)).map((n) => formats[n])) {
            const options = {
              kind: d.kind,
              format,
              tokenizer: t.tokenizer,
              budget: 2000,
              level: 'raw' as const,
              models: d.result.items,
              count: t.count,
            };
            const plan = planChunks(items, options);
            assert.equal(plan.tokenizer, name);
            plan.chunks.forEach((c, k) => {
              if (plan.oversized.includes(c.offset)) return;
              assert.ok(
                t.tokenizer.count(chunkResponse(items, options, plan, k)) <= 2000,
                `${datasetName(d)} ${level} ${format.name} chunk ${k + 1} (${name})`,
              );
            });
          }
        }
      }
    }
  });

  it('a tighter budget never needs fewer pages', () => {
    const d = datasets.find((x) => x.kind === 'issues' && x.result.items.length > 100)!;
    let previous = 0;
    for (const budget of [16000, 8000, 4000, 2000, 1000, 500]) {
      const plan = planChunks(d.result.items, {
        kind: d.kind,
        format: formats.toon,
        tokenizer: o200k.tokenizer,
        budget,
        level: 'standard',
        count: o200k.count,
      });
      assert.ok(plan.total_chunks >= previous, `${budget}: ${plan.total_chunks} < ${previous}`);
      previous = plan.total_chunks;
    }
    assert.ok(previous > 10);
  });
});
