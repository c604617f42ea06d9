import { biasTable } from './bias.js';
import { familyViews } from './family-views.js';
import { methodContrast } from './method-contrast.js';
import { BENCHMARK_SCHEMA, type BenchmarkResult, type BenchmarkRow } from './schema.js';

/** What a run measured (or a merge gathered from its parts), before the sections computed from it. */
export type Measured = Pick<
  BenchmarkResult,
  | 'devboy'
  | 'source'
  | 'settings'
  | 'tokenizers'
  | 'formats'
  | 'datasets'
  | 'rows'
  | 'fit'
  | 'skipped'
  | 'unmeasured'
  | 'recordings'
  | 'unmeasured_cells'
  | 'session'
  | 'explainers'
>;

/**
 * A result from what was measured, with every section computed from its rows: the heuristic's
 * bias, the method contrast, winners, break-even and the lossy list. A run and `devboy merge` both
 * build their result here, so a merged result's sections are those of all its rows (a part's are
 * only its own), whatever section a later version adds.
 */
export function assembleResult(m: Measured): BenchmarkResult {
  const method_contrast = methodContrast(
    m.rows,
    m.tokenizers.map((t) => t.name),
  );
  return {
    schema: BENCHMARK_SCHEMA,
    devboy: m.devboy,
    source: m.source,
    settings: m.settings,
    tokenizers: m.tokenizers,
    formats: m.formats,
    datasets: m.datasets,
    rows: m.rows,
    heuristic_bias: biasTable(m.rows),
    ...(method_contrast ? { method_contrast } : {}),
    // Absent only in results saved before skipped recordings were listed.
    ...(m.skipped ? { skipped: m.skipped } : {}),
    // Corpus runs: every recording measured, not measured (with why) or skipped.
    ...(m.unmeasured ? { unmeasured: m.unmeasured } : {}),
    ...(m.recordings ? { recordings: m.recordings } : {}),
    // Absent only in results saved before cells a format cannot write were listed.
    ...(m.unmeasured_cells ? { unmeasured_cells: m.unmeasured_cells } : {}),
    fit: m.fit,
    ...(m.session ? { session: m.session } : {}),
    ...(m.explainers ? { explainers: m.explainers } : {}),
    ...familyViews(m.rows, m.tokenizers, m.explainers, m.settings.savings_baseline, m.settings.formats),
    lossy: lossyCells(m.rows).map((r) => ({
      provider: r.provider,
      project: r.project,
      dataset: r.dataset,
      label: r.label,
      level: r.level,
      format: r.format,
      reason: r.lossless_reason ?? 'not lossless',
      ...(r.loss ? { loss: r.loss } : {}),
    })),
  };
}

/**
 * Rows that do not round-trip, once per dataset, level and format. The whole list's loss is the
 * same under every tokenizer; a page's loss can differ (pages split where the budget falls in
 * that tokenizer's counts): the first tokenizer's reason is listed.
 */
function lossyCells(rows: readonly BenchmarkRow[]): BenchmarkRow[] {
  const seen = new Set<string>();
  return rows.filter((r) => {
    if (r.lossless) return false;
    const key = [r.provider, r.project, r.dataset, r.label, r.level, r.format].join('\u0000');
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
