import { datasetBudgetInput, respondWithinBudget } from '../src/budget/respond-within-budget.js';
import { planChunks } from '../src/budget/plan-chunks.js';
import { loadFormats } from '../src/formats/registry.js';
import type { Format } from '../src/formats/types.js';
import { loadCorpusDatasets } from '../src/providers/load.js';
import type { Dataset } from '../src/model/index.js';
import { loadTokenizer } from '../src/tokens/registry.js';
import type { Tokenizer, TokenizerName } from '../src/tokens/types.js';
import { datasetAtLevel, LEVELS } from '../src/trim/levels.js';
import { corpusPath } from './budget-common.js';
import type { BenchContext, BenchOutcome, BenchSection } from './section.js';

/**
 * Two questions about the budget pipeline on the corpus:
 * - pages: how many responses of one budget it takes to read every item, per level and format
 *   (planChunks, the benchmark's pages column), and what computing that costs next to counting the
 *   whole outputs once, which the benchmark does anyway (same run, same memoizing count);
 * - fits in budget: what the first response of `devboy format` holds at each budget: items in it,
 *   at which detail, and tokens used.
 */
export const budgetFitSection: BenchSection = {
  name: 'budget-fit',
  description: 'pages per level and format (planChunks) and what fits in one response (respondWithinBudget), corpus, o200k_base',
  async run(ctx: BenchContext): Promise<BenchOutcome> {
    const budget = Number(ctx.options.get('budget') ?? 8000);
    const datasets = await loadCorpusDatasets(corpusPath());
    const formats = await loadFormats();
    const lines: string[] = [];
    const data: Record<string, unknown> = { budget };

    // Cost of the pages column for the benchmark's whole grid, against counting the whole outputs once.
    const cost: Record<string, unknown>[] = [];
    for (const name of ['o200k_base', 'cl100k_base'] as TokenizerName[]) {
      const tokenizer = await loadTokenizer(name);
      const { count, stats } = memo(tokenizer);
      let t = performance.now();
      for (const d of datasets) for (const level of LEVELS) for (const f of formats) count(f.encode(datasetAtLevel(d, level)));
      const wholeMs = performance.now() - t;
      const wholeTokens = stats.tokens;
      t = performance.now();
      let plans = 0;
      let pages = 0;
      for (const d of datasets) {
        for (const level of LEVELS) {
          const items = datasetAtLevel(d, level);
          for (const f of formats) {
            pages += planChunks(items, {
              kind: d.kind,
              format: f,
              tokenizer,
              budget,
              level: 'raw',
              models: d.result.items,
              count,
            }).total_chunks;
            plans++;
          }
        }
      }
      const planMs = performance.now() - t;
      cost.push({
        tokenizer: name,
        plans,
        pages,
        whole_ms: wholeMs,
        plan_ms: planMs,
        whole_tokens: wholeTokens,
        extra_tokens_counted: stats.tokens - wholeTokens,
      });
      ctx.log(`  ${name}: ${plans} plans in ${Math.round(planMs)} ms; counting the whole outputs took ${Math.round(wholeMs)} ms`);
    }
    lines.push(
      `planChunks over the benchmark's grid (${datasets.length} datasets x ${LEVELS.length} levels x ${formats.length} formats), budget ${budget}, memoizing count shared with the whole-output counts:`,
    );
    for (const c of cost) {
      const r = c as {
        tokenizer: string;
        plans: number;
        pages: number;
        whole_ms: number;
        plan_ms: number;
        whole_tokens: number;
        extra_tokens_counted: number;
      };
      lines.push(
        `  ${r.tokenizer}: ${Math.round(r.plan_ms).toLocaleString('en-US')} ms for ${r.plans} plans (${r.pages} pages) = ${(r.plan_ms / r.whole_ms).toFixed(2)}x the ${Math.round(r.whole_ms).toLocaleString('en-US')} ms of counting every whole output once; tokens counted beyond the whole outputs: ${(r.extra_tokens_counted / r.whole_tokens).toFixed(2)}x`,
      );
    }
    data['cost'] = cost;

    const tokenizer = await loadTokenizer('o200k_base');
    const { count } = memo(tokenizer);
    const big = [...datasets]
      .sort((a, b) => b.result.items.length - a.result.items.length || a.label.localeCompare(b.label))
      .filter(distinctProject)
      .slice(0, 10);
    lines.push('', `Pages at ${budget} o200k_base tokens (responses to read every item, chunk index included), largest datasets:`);
    lines.push(
      `${'dataset'.padEnd(44)} ${'items'.padStart(5)}  ${formats.map((f) => f.name.padStart(14)).join('')}   (raw/full/standard/minimal)`,
    );
    const pagesRows: unknown[] = [];
    for (const d of big) {
      const cells = formats.map((f) =>
        LEVELS.map(
          (level) =>
            planChunks(datasetAtLevel(d, level), {
              kind: d.kind,
              format: f,
              tokenizer,
              budget,
              level: 'raw',
              models: d.result.items,
              count,
            }).total_chunks,
        ),
      );
      pagesRows.push({
        dataset: name(d),
        items: d.result.items.length,
        pages: Object.fromEntries(formats.map((f, i) => [f.name, Object.fromEntries(LEVELS.map((l, j) => [l, cells[i]![j]]))])),
      });
      lines.push(
        `${name(d).slice(0, 44).padEnd(44)} ${String(d.result.items.length).padStart(5)}  ${cells.map((c) => c.join('/').padStart(14)).join('')}`,
      );
    }
    data['pages'] = pagesRows;

    lines.push('', 'Fits in budget: the first response of devboy format (toon, o200k_base), per budget:');
    lines.push(
      `${'dataset'.padEnd(44)} ${'budget'.padStart(6)} ${'items in'.padStart(10)} ${'full/std/min'.padStart(13)} ${'cut'.padStart(4)} ${'chunks'.padStart(6)} ${'tokens'.padStart(7)}`,
    );
    const fitRows: unknown[] = [];
    const toon = formats.find((f) => f.name === 'toon')!;
    for (const d of big) {
      for (const b of [1000, 2000, 4000, 8000]) {
        const r = fit(d, toon, tokenizer, b, count);
        fitRows.push({ dataset: name(d), budget: b, ...r });
        lines.push(
          `${name(d).slice(0, 44).padEnd(44)} ${String(b).padStart(6)} ${`${r.included}/${d.result.items.length}`.padStart(10)} ${`${r.detail.full}/${r.detail.standard}/${r.detail.minimal}`.padStart(13)} ${String(r.detail.cut).padStart(4)} ${String(r.chunks).padStart(6)} ${String(r.tokens).padStart(7)}`,
        );
      }
    }
    data['fits'] = fitRows;
    return { text: lines.join('\n'), data };
  },
};

function fit(d: Dataset, format: Format, tokenizer: Tokenizer, budget: number, count: (t: string) => number) {
  const r = respondWithinBudget(datasetBudgetInput(d), { format, tokenizer, budget, count });
  return {
    included: r.included.length,
    detail: r.detail,
    chunks: r.metadata.total_chunks,
    tokens: r.metadata.estimated_tokens,
    algorithm: r.algorithm ?? null,
  };
}

function memo(tokenizer: Tokenizer) {
  const seen = new Map<string, number>();
  const stats = { tokens: 0 };
  const count = (t: string) => {
    let n = seen.get(t);
    if (n === undefined) {
      n = tokenizer.count(t);
      seen.set(t, n);
      stats.tokens += n;
    }
    return n;
  };
  return { count, stats };
}

const seenProjects = new Set<string>();
function distinctProject(d: Dataset): boolean {
  const key = `${d.provider}/${d.project}/${d.kind}`;
  if (seenProjects.has(key)) return false;
  seenProjects.add(key);
  return true;
}

function name(d: Dataset): string {
  return `${d.provider}/${d.project} ${d.kind}`;
}
