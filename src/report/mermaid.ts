/**
 * Mermaid `xychart-beta` sources for Markdown reports: GitHub renders them in PR comments and job
 * summaries. Mermaid draws every bar up from the bottom of the y axis and has no legend, so charts
 * here are single-series bar charts with an explicit y range (plus, for changes, a reference line).
 * test/report-mermaid.test.ts checks every chart with Mermaid's own parser.
 */
import { mermaidString as quote } from '../escape/mermaid.js';

export interface BarChart {
  title: string;
  categories: readonly string[];
  yLabel: string;
  values: readonly number[];
  /** The y axis; Mermaid's default starts at the smallest value, which would make its bar vanish. */
  yRange: [number, number];
  /** A line drawn over the bars, e.g. the base's level in a chart of changes. */
  line?: readonly number[];
  height?: number;
}

export function xyBarChart(chart: BarChart): string {
  if (chart.values.length !== chart.categories.length) throw new Error('a bar chart needs one value per category');
  const lines = [
    '```mermaid',
    '---',
    'config:',
    '  xyChart:',
    `    height: ${chart.height ?? 260}`,
    '---',
    'xychart-beta',
    `  title ${quote(chart.title)}`,
    `  x-axis [${chart.categories.map((c) => quote(c)).join(', ')}]`,
    `  y-axis ${quote(chart.yLabel)} ${num(chart.yRange[0])} --> ${num(chart.yRange[1])}`,
    `  bar [${chart.values.map(num).join(', ')}]`,
  ];
  if (chart.line) lines.push(`  line [${chart.line.map(num).join(', ')}]`);
  lines.push('```');
  return lines.join('\n');
}

/** 0 up to a round number above the largest value, so the tallest bar stays inside the chart. */
export function rangeFromZero(values: readonly number[]): [number, number] {
  const max = Math.max(0, ...values);
  if (max === 0) return [0, 1];
  const step = 10 ** Math.max(0, Math.floor(Math.log10(max)) - 1);
  return [0, Math.ceil((max * 1.05) / step) * step];
}

/** A range around `center` wide enough for every value, at least ±1. */
export function rangeAround(center: number, values: readonly number[]): [number, number] {
  const reach = Math.max(1, ...values.map((v) => Math.abs(v - center) * 1.25));
  const pad = Math.ceil(reach);
  return [center - pad, center + pad];
}

/** Plain decimals: Mermaid's number token has no exponent. */
function num(v: number): string {
  if (!Number.isFinite(v)) throw new Error(`a chart value must be finite, got ${v}`);
  return String(Number(v.toFixed(2)));
}
