import type { Comparison } from '../compare/compare.js';
import { benchmarkCsv } from './benchmark-csv.js';
import { benchmarkJson, benchmarkJsonPieces } from './benchmark-json.js';
import { benchmarkMarkdown } from './benchmark-markdown.js';
import { benchmarkTable } from './benchmark-table.js';
import { compareJson } from './compare-json.js';
import { compareMarkdown } from './compare-markdown.js';
import { compareTable } from './compare-table.js';
import type { Exporter } from './exporter.js';

export type { Exporter, RenderOptions, ReportInput } from './exporter.js';
export { CSV_COLUMNS } from './benchmark-csv.js';

export type ExporterName = 'table' | 'markdown' | 'json' | 'csv';

/** Every exporter of benchmark results, by name. Tests render each one against a golden file. */
export const EXPORTERS: Record<ExporterName, Exporter> = {
  table: {
    name: 'table',
    description: 'aligned text for a terminal',
    extension: '.txt',
    render: ({ result, comparison }, options) =>
      `${benchmarkTable(result, options)}\n${comparison ? `\n${compareTable(comparison, options)}` : ''}`,
  },
  markdown: {
    name: 'markdown',
    description: 'Markdown for CI job summaries and PR comments, with Mermaid charts',
    extension: '.md',
    render: ({ result, comparison }, options) =>
      `${benchmarkMarkdown(result)}${comparison ? `\n${compareMarkdown(comparison, options)}` : ''}`,
  },
  json: {
    name: 'json',
    description: 'the result as JSON, schema devboy.benchmark/1 (docs/benchmark-schema.md)',
    extension: '.json',
    render: ({ result, comparison }) => benchmarkJson(result, comparison),
    pieces: ({ result, comparison }) => benchmarkJsonPieces(result, comparison),
  },
  csv: {
    name: 'csv',
    description: 'one line per row, RFC 4180 (columns in docs/benchmark-schema.md)',
    extension: '.csv',
    render: ({ result }) => benchmarkCsv(result),
  },
};

export const EXPORTER_NAMES = Object.keys(EXPORTERS) as ExporterName[];

export type CompareExporterName = 'table' | 'markdown' | 'json';

/** Every exporter of comparisons (`devboy compare`, `benchmark --baseline`), by name; golden files too. */
export const COMPARE_EXPORTERS: Record<CompareExporterName, Exporter<Comparison>> = {
  table: { name: 'table', description: 'aligned text for a terminal', extension: '.txt', render: (c, options) => compareTable(c, options) },
  markdown: {
    name: 'markdown',
    description: 'Markdown for $GITHUB_STEP_SUMMARY and PR comments, with a Mermaid chart',
    extension: '.md',
    render: (c, options) => compareMarkdown(c, options),
  },
  json: {
    name: 'json',
    description: 'the comparison as JSON, schema devboy.compare/1 (docs/ci.md)',
    extension: '.json',
    render: (c) => compareJson(c),
  },
};

export const COMPARE_EXPORTER_NAMES = Object.keys(COMPARE_EXPORTERS) as CompareExporterName[];
