import type { CorpusListing } from '../providers/corpus-list.js';
import { skippedText } from '../replay/corpus.js';
import { plural } from '../text/words.js';
import { terminalText as t } from '../escape/terminal.js';
import { DEFAULT_WIDTH, foldLine } from '../text/fold.js';

/** Kind column of a dataset line: as wide as the longest kind (`merge_requests`) and a space. */
const KIND = 15;

/**
 * `devboy benchmark --list`: providers, projects and the datasets a run would measure, one line each,
 * folded to `width` columns (a long request continues under its own column).
 */
export function corpusListText(listing: CorpusListing, name: string, width = DEFAULT_WIDTH): string {
  const projects = listing.providers.flatMap((p) => p.projects);
  const datasets = projects.flatMap((p) => p.datasets);
  const { provider, project, kinds } = listing.filter;
  const narrowed = [
    provider ? `provider ${t(provider)}` : '',
    project ? `project ${t(project)}` : '',
    kinds ? `${kinds.length === 1 ? 'dataset' : 'datasets'} ${kinds.map((k) => t(k)).join(', ')}` : '',
  ].filter(Boolean);
  const lines = [
    ...foldLine(
      `${t(name)}${narrowed.map((n) => `, ${n}`).join('')}: ${plural(listing.providers.length, 'provider')}, ${plural(projects.length, 'project')}, ${plural(datasets.length, 'planned dataset')} from ${plural(
        projects.reduce((n, p) => n + p.recordings, 0),
        'recording',
      )} (a run leaves out those that turn out empty)`,
      width,
    ),
  ];
  for (const p of listing.providers) {
    lines.push(p.provider);
    for (const project of p.projects) {
      lines.push(
        ...foldLine(
          `  ${t(project.project)}  (${plural(project.recordings, 'recording')}, ${plural(project.datasets.length, 'dataset')})`,
          width,
          '    ',
        ),
      );
      for (const d of project.datasets)
        lines.push(...foldLine(`    ${t(d.kind).padEnd(KIND)} ${t(d.label)}`, width, ' '.repeat(4 + KIND + 1)));
    }
  }
  const notMeasured = projects.flatMap((p) => p.notMeasured);
  if (notMeasured.length) {
    // Known before any replay; a run adds what replay finds (empty lists, pages nothing leads to) and lists both.
    lines.push(`not measured: ${plural(notMeasured.length, 'recording')} no run measures`);
    for (const u of notMeasured) lines.push(...foldLine(`  ${t(`${u.file}: ${u.reason}`)}`, width, '    '));
  }
  if (listing.skipped.length) {
    lines.push(`skipped: ${plural(listing.skipped.length, 'recording')} that cannot be read`);
    for (const s of listing.skipped) lines.push(...foldLine(`  ${t(skippedText(s))}`, width, '    '));
  }
  return `${lines.join('\n')}\n`;
}

/** `devboy benchmark --list --json`: the same listing for scripts (a CI matrix made from a corpus's projects). */
export function corpusListJson(listing: CorpusListing, corpus: string): string {
  return `${JSON.stringify({ schema: 'devboy.corpus-list/1', corpus, ...listing }, null, 2)}\n`;
}
