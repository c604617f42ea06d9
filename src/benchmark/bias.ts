import type { BenchmarkRow, BiasEntry } from './schema.js';

/**
 * How far the heuristic (bytes / 3.5) is from each real tokenizer, per format and level, summed
 * over datasets. The bias differs by format, which is why it can change which format "wins".
 */
export function biasTable(rows: readonly BenchmarkRow[]): BiasEntry[] {
  const heuristic = new Map<string, number>();
  for (const r of rows) if (r.tokenizer === 'heuristic') heuristic.set(cellKey(r), r.tokens);
  if (heuristic.size === 0) return [];
  const sums = new Map<string, BiasEntry>();
  for (const r of rows) {
    if (r.tokenizer === 'heuristic') continue;
    const h = heuristic.get(cellKey(r));
    if (h === undefined) continue;
    const k = `${r.format}|${r.level}|${r.tokenizer}`;
    const e = sums.get(k) ?? { format: r.format, level: r.level, tokenizer: r.tokenizer, tokens: 0, heuristic_tokens: 0, bias: 0 };
    e.tokens += r.tokens;
    e.heuristic_tokens += h;
    sums.set(k, e);
  }
  return [...sums.values()].map((e) => ({ ...e, bias: e.tokens === 0 ? 0 : e.heuristic_tokens / e.tokens - 1 }));
}

function cellKey(r: BenchmarkRow): string {
  return [r.provider, r.project, r.dataset, r.label, r.level, r.format].join('|');
}
