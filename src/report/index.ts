import { benchmarkJson } from './benchmark-json.js';
import { benchmarkMarkdown } from './benchmark-markdown.js';
import { benchmarkTable } from './benchmark-table.js';
import type { Exporter } from './exporter.js';
import { regressionMarkdown, regressionText } from './regression-report.js';

export type { Exporter, RenderOptions, ReportInput } from './exporter.js';
export { regressionText } from './regression-report.js';

export type ExporterName = 'table' | 'markdown' | 'json';

/** Every exporter of benchmark results, by name. Tests render each one against a golden file. */
export const EXPORTERS: Record<ExporterName, Exporter> = {
  table: {
    name: 'table',
    description: 'aligned text for a terminal',
    extension: '.txt',
    render: ({ result, regression }, options) =>
      `${benchmarkTable(result, options)}\n${regression ? `\n${regressionText(regression)}\n` : ''}`,
  },
  markdown: {
    name: 'markdown',
    description: 'Markdown for CI job summaries and PR comments',
    extension: '.md',
    render: ({ result, regression }) => `${benchmarkMarkdown(result)}${regression ? `\n${regressionMarkdown(regression)}` : ''}`,
  },
  json: {
    name: 'json',
    description: 'the result as JSON, schema devboy.benchmark/1 (docs/benchmark-schema.md)',
    extension: '.json',
    render: ({ result, regression }) => benchmarkJson(result, regression),
  },
};

export const EXPORTER_NAMES = Object.keys(EXPORTERS) as ExporterName[];
