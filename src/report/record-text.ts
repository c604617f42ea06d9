import type { RecordResult } from '../record/record.js';
import { terminalText as t } from '../escape/terminal.js';
import { DEFAULT_WIDTH, foldLine } from '../text/fold.js';
import { plural } from '../text/words.js';

/** Kind column of a dataset line: as wide as the longest kind (`merge_requests`). */
const KIND = 14;

/**
 * What `devboy record` wrote: the project folder, then one line per dataset (kind, items, request),
 * folded to `width`, a long request continuing under its own column; paths and requests escaped.
 */
export function recordedText(result: Pick<RecordResult, 'projectDir' | 'files' | 'datasets'>, width = DEFAULT_WIDTH): string {
  const lines = foldLine(`recorded ${plural(result.files.length, 'exchange')} to ${t(result.projectDir)}`, width);
  for (const d of result.datasets)
    lines.push(
      ...foldLine(
        `  ${d.kind.padEnd(KIND)} ${String(d.result.items.length).padStart(5)}  ${t(d.label)}`,
        width,
        ' '.repeat(2 + KIND + 1 + 5 + 2),
      ),
    );
  return `${lines.join('\n')}\n`;
}
