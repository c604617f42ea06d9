import type { FormatName } from '../formats/types.js';
import type { DatasetKind } from '../model/index.js';
import type { TokenizerName } from '../tokens/types.js';
import type { BenchmarkRow } from './schema.js';

/**
 * Why published numbers differ: the same datasets measured by devboy-tools' published method (a
 * pretty-printed JSON baseline, tokens estimated as bytes / 3.5) and by devboy's (compact JSON, a
 * real tokenizer). Scope as devboy-tools publishes: issue, merge request and diff lists at full detail.
 */
export interface MethodContrast {
  scope: { kinds: DatasetKind[]; level: 'full'; datasets: number };
  published: { baseline: 'json_pretty'; tokenizer: 'heuristic' };
  measured: { baseline: 'json_compact'; tokenizer: TokenizerName };
  formats: {
    format: FormatName;
    /** 1 - format tokens / baseline tokens, summed over the scope's datasets: the published figure. */
    published_saving: number;
    measured_saving: number;
    /** Datasets where one method says the format saves and the other that it costs (or breaks even). */
    flips: number;
  }[];
}

const SCOPE_KINDS: DatasetKind[] = ['issues', 'merge_requests', 'diffs'];

/**
 * From a run's rows; undefined when the run lacks what either method needs (the heuristic and a
 * real tokenizer, json and json-compact, the full level).
 */
export function methodContrast(rows: readonly BenchmarkRow[], tokenizers: readonly TokenizerName[]): MethodContrast | undefined {
  const real = tokenizers.find((t) => t !== 'heuristic');
  if (!real || !tokenizers.includes('heuristic')) return undefined;
  // tokens of one dataset's row, per (format, tokenizer)
  const cells = new Map<string, Map<string, number>>();
  for (const r of rows) {
    if (r.level !== 'full' || !SCOPE_KINDS.includes(r.dataset)) continue;
    const ds = [r.provider, r.project, r.dataset, r.label].join('\u0000');
    let m = cells.get(ds);
    if (!m) cells.set(ds, (m = new Map()));
    m.set(`${r.format}|${r.tokenizer}`, r.tokens);
  }
  const datasets = [...cells.values()].filter((m) => m.has('json|heuristic') && m.has(`json-compact|${real}`));
  if (datasets.length === 0) return undefined;
  const formats = [...new Set(rows.map((r) => r.format))].filter((f) => f !== 'json' && f !== 'json-compact');
  return {
    scope: { kinds: SCOPE_KINDS, level: 'full', datasets: datasets.length },
    published: { baseline: 'json_pretty', tokenizer: 'heuristic' },
    measured: { baseline: 'json_compact', tokenizer: real },
    formats: formats.map((format) => {
      let pub = 0;
      let pubBase = 0;
      let mea = 0;
      let meaBase = 0;
      let flips = 0;
      for (const m of datasets) {
        const p = m.get(`${format}|heuristic`);
        const q = m.get(`${format}|${real}`);
        if (p === undefined || q === undefined) continue;
        const pb = m.get('json|heuristic')!;
        const qb = m.get(`json-compact|${real}`)!;
        pub += p;
        pubBase += pb;
        mea += q;
        meaBase += qb;
        if (p < pb !== q < qb) flips++;
      }
      return { format, published_saving: saving(pub, pubBase), measured_saving: saving(mea, meaBase), flips };
    }),
  };
}

function saving(tokens: number, base: number): number {
  return base === 0 ? 0 : Math.round((1 - tokens / base) * 1e6) / 1e6;
}
