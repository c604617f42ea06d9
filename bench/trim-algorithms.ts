import { ALGORITHMS, ALGORITHM_NAMES, SWITCH_POINTS, type AlgorithmName } from '../src/budget/algorithms/choose.js';
import { knapsackCells } from '../src/budget/algorithms/knapsack.js';
import { resolveStrategy } from '../src/budget/strategies/resolver.js';
import { STRATEGIES } from '../src/budget/strategies/strategy.js';
import { chunkTree } from '../src/budget/tree/chunk-tree.js';
import { planItem, type ItemPlan } from '../src/budget/tree/item-plan.js';
import { flatten, selectionValue, type FlatTree } from '../src/budget/tree/trim-tree.js';
import { loadFormat } from '../src/formats/registry.js';
import type { JsonValue } from '../src/json/types.js';
import { loadCorpusDatasets } from '../src/providers/load.js';
import { itemsOf, kindedItems, type ItemList } from '../src/model/index.js';
import { loadTokenizer } from '../src/tokens/registry.js';
import { corpusPath, median, timeIt } from './budget-common.js';
import type { BenchContext, BenchOutcome, BenchSection } from './section.js';

interface Row {
  tree: string;
  nodes: number;
  budget: number;
  cells: number;
  ms: Record<AlgorithmName, number | null>;
  /** Value kept, as a fraction of the exact optimum (or of the best found when the exact one was not run). */
  value: Record<AlgorithmName, number | null>;
  exact: boolean;
}

const BUDGETS = [1000, 8000];
/**
 * How long the solver may take, in counts of one 8,000-token response: the budget loop renders and
 * counts a candidate 2 to 6 times per response, so a solver within 5 counts stays the same order of
 * cost as the loop around it.
 */
const TIME_ALLOWANCE = 5;
/** The exact knapsack is run for reference only up to this many cells (its memory is one byte per cell). */
const EXACT_CAP = 40_000_000;

/**
 * Where the four trimming algorithms should hand over, measured: trim trees built from the corpus
 * (every item of a dataset, toon, o200k_base weights), then the issues' trees repeated to 10^6 nodes.
 * Each algorithm's time is set against one reference measured in the same run, the time to count one
 * 8,000-token response with o200k_base (what every budget round costs anyway), and its value against
 * the exact optimum where the exact knapsack could run.
 */
export const trimAlgorithmsSection: BenchSection = {
  name: 'trim-algorithms',
  description: 'exact knapsack vs greedy vs WFQ vs head+tail: time against one o200k_base count, value against the optimum',
  async run(ctx: BenchContext): Promise<BenchOutcome> {
    const trees = await buildTrees(ctx);
    const tokenizer = await loadTokenizer('o200k_base');
    const toon = await loadFormat('toon');
    const datasets = await loadCorpusDatasets(corpusPath());
    const sample = toon.encode(datasets.flatMap((d) => d.result.items as unknown as JsonValue[]));
    // A response-sized text: the first 8,000 tokens' worth of characters of real output.
    const response = sample.slice(0, Math.round((sample.length * 8000) / tokenizer.count(sample)));
    const refMs = median(timeIt(() => tokenizer.count(response), 200));
    const rows: Row[] = [];
    for (const { name, tree } of trees) {
      for (const budget of BUDGETS) {
        const cells = knapsackCells(tree, budget);
        const row: Row = {
          tree: name,
          nodes: tree.size,
          budget,
          cells,
          ms: {} as Row['ms'],
          value: {} as Row['value'],
          exact: cells <= EXACT_CAP,
        };
        const values: Partial<Record<AlgorithmName, number>> = {};
        for (const alg of ALGORITHM_NAMES) {
          if (alg === 'knapsack' && !row.exact) {
            row.ms[alg] = null;
            continue;
          }
          const kept = ALGORITHMS[alg](tree, budget)!;
          values[alg] = selectionValue(tree, kept);
          row.ms[alg] = median(timeIt(() => ALGORITHMS[alg](tree, budget), tree.size > 100_000 ? 300 : 150));
        }
        const best = values.knapsack ?? Math.max(...Object.values(values));
        for (const alg of ALGORITHM_NAMES) row.value[alg] = values[alg] === undefined ? null : best > 0 ? values[alg]! / best : 1;
        rows.push(row);
        ctx.log(`  ${name} (${tree.size} nodes), budget ${budget}: ${ALGORITHM_NAMES.map((a) => `${a} ${fmtMs(row.ms[a])}`).join(', ')}`);
      }
    }
    const chosen = choosePoints(rows, refMs);
    return { text: report(rows, refMs, chosen), data: { reference_ms: refMs, rows, chosen, in_code: SWITCH_POINTS } };
  },
};

async function buildTrees(ctx: BenchContext): Promise<{ name: string; tree: FlatTree }[]> {
  const datasets = await loadCorpusDatasets(corpusPath());
  const toon = await loadFormat('toon');
  const tokenizer = await loadTokenizer('o200k_base');
  const memo = new Map<string, number>();
  const count = (t: string) => memo.get(t) ?? (memo.set(t, tokenizer.count(t)), memo.get(t)!);
  const empty = count(toon.encode([]));
  const valueTokens = (v: JsonValue) => Math.max(1, count(toon.encode([v])) - empty);
  const textTokens = (t: string) => Math.max(1, count(JSON.stringify(t)) - 2);
  const plansOf = (list: ItemList): ItemPlan[] => {
    const strategy = STRATEGIES[resolveStrategy(list.kind).strategy];
    const values = strategy.itemValues(list);
    return kindedItems(list).map((entry, i) => planItem(entry, i, values[i]!, strategy, valueTokens, textTokens));
  };
  ctx.log('building trim trees from the corpus');
  const out: { name: string; tree: FlatTree }[] = [];
  const bySize = datasets
    .map((d) => ({ d, plans: plansOf(itemsOf(d)) }))
    .map(({ d, plans }) => ({
      name: `${d.kind} ${d.project} (${d.result.items.length})`,
      kind: d.kind,
      plans,
      tree: flatten(chunkTree(d.kind, plans)),
    }));
  bySize.sort((a, b) => a.tree.size - b.tree.size);
  // A spread of real trees: smallest, quartiles, largest.
  for (const q of [0.25, 0.5, 0.75, 0.9, 1]) {
    const pick = bySize[Math.min(bySize.length - 1, Math.floor(q * (bySize.length - 1)))]!;
    if (!out.some((o) => o.name === pick.name)) out.push({ name: pick.name, tree: pick.tree });
  }
  // Larger than any one response: the corpus issues' plans repeated.
  const issuePlans = bySize.filter((x) => x.kind === 'issues').flatMap((x) => x.plans);
  const perPlan = flatten(chunkTree('issues', issuePlans)).size / issuePlans.length;
  for (const nodes of [10_000, 30_000, 100_000, 300_000, 1_000_000]) {
    const copies = Math.ceil(nodes / perPlan);
    const plans = Array.from({ length: copies }, (_, i) => issuePlans[i % issuePlans.length]!);
    out.push({ name: `corpus issues x${(copies / issuePlans.length).toFixed(1)}`, tree: flatten(chunkTree('issues', plans)) });
  }
  return out;
}

interface Chosen {
  knapsackMaxCells: number;
  greedyMaxNodes: number;
  wfqMaxNodes: number;
  rule: string;
}

/**
 * The rule: a solver may take TIME_ALLOWANCE counts of a response (the reference). The most valuable
 * one that fits is used: the exact knapsack while its slowest time per cell keeps it within that;
 * greedy while its slowest time per node does; WFQ after it only if it is faster per node than
 * greedy (it is never more valuable); head+tail beyond.
 */
function choosePoints(rows: Row[], refMs: number): Chosen {
  const allowance = refMs * TIME_ALLOWANCE;
  const per = (alg: AlgorithmName, unit: (r: Row) => number) => {
    const rates = rows.filter((r) => r.ms[alg] !== null && unit(r) >= 1000).map((r) => r.ms[alg]! / unit(r));
    return rates.length === 0 ? Number.POSITIVE_INFINITY : Math.max(...rates);
  };
  const cellMs = per('knapsack', (r) => r.cells);
  const greedyMs = per('greedy', (r) => r.nodes);
  const wfqMs = per('wfq', (r) => r.nodes);
  const knapsackMaxCells = Math.floor(allowance / cellMs);
  const greedyMaxNodes = Math.floor(allowance / greedyMs);
  const wfqMaxNodes = wfqMs < greedyMs ? Math.floor(allowance / wfqMs) : greedyMaxNodes;
  return {
    knapsackMaxCells,
    greedyMaxNodes,
    wfqMaxNodes,
    rule: `the most valuable solver whose slowest measured time per cell/node keeps it within ${TIME_ALLOWANCE} o200k_base counts of an 8,000-token response`,
  };
}

function report(rows: Row[], refMs: number, chosen: Chosen): string {
  const lines = [
    `Trimming algorithms on corpus trim trees (toon, o200k_base weights). Reference: counting one 8,000-token response with o200k_base takes ${fmtMs(refMs)} ms (same run). Times in ms.`,
    `${'tree'.padEnd(38)} ${'nodes'.padStart(9)} ${'budget'.padStart(6)} ${'cells'.padStart(11)}  ${ALGORITHM_NAMES.map((a) => `${a} ms / value`.padStart(22)).join('')}`,
  ];
  for (const r of rows) {
    const cols = ALGORITHM_NAMES.map((a) =>
      `${fmtMs(r.ms[a])} / ${r.value[a] === null ? 'n/a' : r.value[a]!.toFixed(3)}`.padStart(22),
    ).join('');
    lines.push(
      `${r.tree.slice(0, 38).padEnd(38)} ${r.nodes.toLocaleString('en-US').padStart(9)} ${String(r.budget).padStart(6)} ${r.cells.toLocaleString('en-US').padStart(11)}  ${cols}`,
    );
  }
  lines.push('value: fraction of the exact optimum where the exact knapsack ran, else of the best of the others');
  const worst = (alg: AlgorithmName) => Math.min(...rows.filter((r) => r.exact && r.value[alg] !== null).map((r) => r.value[alg]!));
  lines.push(
    `worst value against the optimum: greedy ${worst('greedy').toFixed(3)}, wfq ${worst('wfq').toFixed(3)}, head_tail ${worst('head_tail').toFixed(3)}`,
  );
  lines.push(`switch points by the rule (${chosen.rule}):`);
  lines.push(
    `  knapsack while cells <= ${chosen.knapsackMaxCells.toLocaleString('en-US')}; greedy up to ${chosen.greedyMaxNodes.toLocaleString('en-US')} nodes; wfq up to ${chosen.wfqMaxNodes.toLocaleString('en-US')} nodes; head_tail beyond`,
  );
  lines.push(
    `  in the code (src/budget/algorithms/choose.ts): knapsack <= ${SWITCH_POINTS.knapsackMaxCells.toLocaleString('en-US')} cells, greedy <= ${SWITCH_POINTS.greedyMaxNodes.toLocaleString('en-US')}, wfq <= ${SWITCH_POINTS.wfqMaxNodes.toLocaleString('en-US')}`,
  );
  return lines.join('\n');
}

function fmtMs(v: number | null): string {
  if (v === null) return 'n/a';
  return v < 1 ? `${v.toFixed(3)}` : v < 100 ? v.toFixed(2) : Math.round(v).toLocaleString('en-US');
}
