import type { RegressionReport } from '../benchmark/regression.js';

/** Plain text for the terminal: the verdict first, then every regressed row by name. */
export function regressionText(r: RegressionReport): string {
  const lines = [
    r.passed
      ? `regression gate: PASSED against ${r.baseline}: ${r.compared} rows compared, no token count grew more than ${pctOf(r.max_regression)}, none lost losslessness, none disappeared`
      : `regression gate: FAILED against ${r.baseline}: ${r.regressions.length} regressions in ${r.compared} compared rows (tolerance ${pctOf(r.max_regression)})`,
  ];
  for (const g of r.regressions) lines.push(`  ${g.kind.padEnd(8)} ${g.row}: ${g.detail}`);
  const notes = [];
  if (r.improved) notes.push(`${r.improved} rows improved beyond the tolerance (update the baseline to lock them in)`);
  if (r.new_rows) notes.push(`${r.new_rows} rows are new`);
  if (r.out_of_scope) notes.push(`${r.out_of_scope} baseline rows are outside this run's scope and were not compared`);
  if (notes.length) lines.push(`  note: ${notes.join('; ')}`);
  if (r.timing_warnings.length) {
    lines.push(`  timing (informational, never fails the gate): ${r.timing_warnings.length} medians over 3x the baseline's`);
    for (const w of r.timing_warnings.slice(0, 10)) lines.push(`    ${w}`);
  }
  return lines.join('\n');
}

export function regressionMarkdown(r: RegressionReport): string {
  const out = [
    '### Regression gate',
    '',
    r.passed
      ? `✅ Passed against \`${r.baseline}\`: ${r.compared} rows compared (tolerance ${pctOf(r.max_regression)}).`
      : `❌ **Failed** against \`${r.baseline}\`: ${r.regressions.length} regressions (tolerance ${pctOf(r.max_regression)}).`,
  ];
  if (r.regressions.length) {
    out.push('', '| kind | row | detail |', '| --- | --- | --- |');
    for (const g of r.regressions) out.push(`| ${g.kind} | ${g.row.replace(/\|/g, '\\|')} | ${g.detail.replace(/\|/g, '\\|')} |`);
  }
  if (r.timing_warnings.length) out.push('', `Timing (informational): ${r.timing_warnings.length} medians over 3x the baseline's.`);
  return `${out.join('\n')}\n`;
}

function pctOf(f: number): string {
  return `${(f * 100).toFixed(2)}%`;
}
