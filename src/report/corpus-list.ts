import type { CorpusListing } from '../providers/corpus-list.js';
import { skippedText } from '../replay/corpus.js';
import { plural } from '../text/words.js';
import { terminalText as t } from '../escape/terminal.js';

/** `devboy benchmark --list`: providers, projects and the datasets a run would measure, one line each. */
export function corpusListText(listing: CorpusListing, name: string): string {
  const projects = listing.providers.flatMap((p) => p.projects);
  const datasets = projects.flatMap((p) => p.datasets);
  const lines = [
    `${t(name)}: ${plural(listing.providers.length, 'provider')}, ${plural(projects.length, 'project')}, ${plural(datasets.length, 'planned dataset')} (a run leaves out those that turn out empty; from ${plural(
      projects.reduce((n, p) => n + p.recordings, 0),
      'recording',
    )})`,
  ];
  for (const p of listing.providers) {
    lines.push(p.provider);
    for (const project of p.projects) {
      lines.push(`  ${t(project.project)}  (${plural(project.recordings, 'recording')}, ${plural(project.datasets.length, 'dataset')})`);
      for (const d of project.datasets) lines.push(`    ${t(d.kind).padEnd(15)} ${t(d.label)}`);
    }
  }
  const notMeasured = projects.flatMap((p) => p.notMeasured);
  if (notMeasured.length) {
    // Known before any replay; a run adds what replay finds (empty lists, pages nothing leads to) and lists both.
    lines.push(`not measured: ${plural(notMeasured.length, 'recording')} no run measures`);
    for (const u of notMeasured) lines.push(`  ${t(`${u.file}: ${u.reason}`)}`);
  }
  if (listing.skipped.length) {
    lines.push(`skipped: ${plural(listing.skipped.length, 'recording')} that cannot be read`);
    for (const s of listing.skipped) lines.push(`  ${t(skippedText(s))}`);
  }
  return `${lines.join('\n')}\n`;
}
