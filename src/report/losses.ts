import { tokenizerLabel } from '../tokens/registry.js';
import type { TokenizerName } from '../tokens/types.js';
import type { Answer, BenchmarkSummary, LossView } from './benchmark-summary.js';
import { int, plural } from '../text/words.js';
import { changedOnly, lostPercent } from '../formats/loss.js';

/**
 * The answer line and what the lossy formats lose, as the terminal and Markdown reports print them
 * (computed in benchmark-summary.ts, never here).
 */

/** `against your YAML, stc saves 31.2% under o200k_base at full level, losslessly; ...` */
export function answerText(a: Answer, primary: TokenizerName): string {
  const under = primary === 'heuristic' ? 'under the heuristic (an estimate)' : `under ${tokenizerLabel(primary)}`;
  const head =
    a.format === undefined
      ? `against ${a.label}, no candidate format round-trips every dataset at ${a.level} level`
      : `against ${a.label}, ${a.format} ${savesOrCosts(a.saving ?? 0)} ${under} at ${a.level} level, losslessly`;
  const lost = a.baselineLoss;
  const own = lost
    ? ` (${a.label} loses ${lost.lost === 0 ? 'none' : lostPercent(lost.lost, lost.values)} of the values of the ${lost.lossyRows} of ${plural(lost.rows, 'dataset')} it does not round-trip${lost.lost === 0 ? `: ${lost.changed} only` : ''})`
    : '';
  const rest = a.others.map((o) => (o.format ? `${o.level}: ${o.format} ${signed(o.saving ?? 0)}` : `${o.level}: none lossless`));
  return `Answer: ${head}${own}${rest.length ? `; ${rest.join(', ')}` : ''}`;
}

/** One line per lossy format and level: its rows, the share of their values lost, and where most. */
export function lossLines(s: BenchmarkSummary): string[] {
  if (s.losses.length === 0) return [];
  return [
    `What the lossy formats lose (${tokenizerLabel(s.primary)} rows; share of the leaf values of the datasets that do not round-trip; the places that lost most):`,
    ...s.losses.map((l) => `  ${l.format} ${l.level}: ${lossCell(l)}${places(l)}`),
  ];
}

/*
 * Every share below is over the values of the lossy datasets only (lossless rows record no value
 * count), so each says so: read as a share of all values it would claim far more than was lost.
 */

/**
 * `, 41.2% of their values lost` (after `28 lossy`): what a lossy cell of the totals lost, when the
 * result records it; `: key order only, no value lost` when the round trips lost no value.
 */
export function lostShare(s: BenchmarkSummary, format: string, level: string): string {
  const l = s.losses.find((x) => x.format === format && x.level === level);
  if (!l || l.values === 0) return '';
  return l.lost === 0 ? `: ${changedOnly(l.paths)} only, no value lost` : `, ${lostPercent(l.lost, l.values)} of their values lost`;
}

/** `3 of 93 datasets lossy, 41.2% of their 12,345 values lost` */
export function lossCell(l: LossView): string {
  const lossy = `${l.lossyRows} of ${plural(l.rows, 'dataset')} lossy`;
  // Results written before the loss report have no value counts: say so rather than claim 0%.
  if (l.values === 0) return `${lossy} (values lost not recorded in this result)`;
  if (l.lost === 0) return `${lossy}: ${changedOnly(l.paths)} only, none of their ${plural(l.values, 'value')} lost`;
  return `${lossy}, ${lostPercent(l.lost, l.values)} of their ${plural(l.values, 'value')} lost`;
}

/** ` (labels[]: type changed: list -> string, 1,234; ...)` */
export function places(l: LossView): string {
  return l.paths.length ? ` (${l.paths.map((p) => `${p.path}: ${p.what}${p.values ? `, ${int(p.values)}` : ''}`).join('; ')})` : '';
}

function savesOrCosts(saving: number): string {
  return saving >= 0 ? `saves ${percent(saving)}` : `costs ${percent(-saving)} more`;
}

function signed(saving: number): string {
  return saving >= 0 ? `saves ${percent(saving)}` : `+${percent(-saving)}`;
}

function percent(f: number): string {
  return `${(f * 100).toFixed(1)}%`;
}
