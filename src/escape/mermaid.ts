import { terminalText } from './terminal.js';

/**
 * A quoted string of a Mermaid chart (titles, axis labels, categories). Mermaid's strings have no
 * escapes, and Mermaid reads a `%%{...}%%` directive anywhere in the source, whatever surrounds it:
 * a quote would end the string, a newline or `;` the statement, and `%%` could start a directive that
 * changes the chart's configuration. So quotes become `'`, `;` a comma, any run of `%` one `%`,
 * invisible characters escapes, and the text is cut at `max` columns.
 */
export function mermaidString(text: string, max = 80): string {
  const shown = terminalText(text, max)
    .replace(/"/g, "'")
    .replace(/;/g, ',')
    .replace(/%+/g, '%')
    .replace(/[{}]/g, (c) => (c === '{' ? '(' : ')'));
  return `"${shown}"`;
}
