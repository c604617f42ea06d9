// Exporters of benchmark results, each a small module (table, Markdown, JSON), as hyperfine keeps them.
export { benchmarkTable } from './benchmark-table.js';
export { benchmarkMarkdown } from './benchmark-markdown.js';
export { benchmarkJson } from './benchmark-json.js';
export { regressionText, regressionMarkdown } from './regression-report.js';
