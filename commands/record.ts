import { Flags } from '../src/cli/oclif.js';
import { DevboyCommand } from '../src/cli/base-command.js';
import { connectionFlags, connectionOptions } from '../src/cli/connection-flags.js';
import { UsageError } from '../src/errors.js';
import { formatMs } from '../src/providers/failure.js';
import type { ProviderName } from '../src/model/index.js';
import { PROVIDER_NAMES } from '../src/providers/registry.js';
import type { ProgressEvent } from '../src/providers/types.js';
import { recordLive } from '../src/record/record.js';
import { widthOption } from '../src/cli/streams.js';
import { skippedText } from '../src/replay/corpus.js';
import { terminalText } from '../src/escape/terminal.js';

export default class Record extends DevboyCommand {
  static override summary = 'Record live GitHub, GitLab or Jira API exchanges as a corpus, to replay offline (e.g. in CI).';

  static override description = `Fetches the first --limit issues and pull/merge requests (Jira: issues of --project), and the
diffs, comments and review discussions of the first --details of them, through the same client
libraries devboy replays with, and writes each exchange to DIR/<provider>/<project>/ (DIR is
--out-dir, also spelled --out) in the corpus format, with a MANIFEST.tsv. Authorization headers
and cookies are never written.

Credentials come from the environment or flags:
  GitHub  GITHUB_TOKEN (GITHUB_API_URL for Enterprise, e.g. https://HOST/api/v3)
  GitLab  GITLAB_TOKEN, GITLAB_HOST (default https://gitlab.com)
  Jira    JIRA_HOST; JIRA_EMAIL + JIRA_API_TOKEN (Cloud) or JIRA_PAT (Server/Data Center)

Nothing is written unless every request succeeds and every new file reads back; an earlier
recording of the project is replaced whole. A recording under DIR that cannot be read is left out
of MANIFEST.tsv and named on stderr.
Exit codes: 0 ok; 1 provider or network failure; 2 usage.`;

  static override examples = [
    'GITHUB_TOKEN=... <%= config.bin %> record --provider github --owner octokit --repo rest.js --limit 30 --out-dir corpus',
    'GITLAB_TOKEN=... <%= config.bin %> record --provider gitlab --owner gitlab-org --repo gitlab --out-dir corpus',
    'JIRA_HOST=https://example.atlassian.net JIRA_EMAIL=me@example.com JIRA_API_TOKEN=... <%= config.bin %> record --provider jira --project PROJ --out-dir corpus',
  ];

  static override flags = {
    provider: Flags.string({ char: 'p', description: 'provider to record', options: [...PROVIDER_NAMES], required: true }),
    owner: Flags.string({ description: 'GitHub owner or GitLab namespace (group/subgroup)' }),
    repo: Flags.string({ description: 'repository or GitLab project name' }),
    project: Flags.string({ description: 'Jira project key' }),
    jql: Flags.string({ description: 'Jira search (default: project = KEY ORDER BY created DESC)' }),
    limit: Flags.integer({ char: 'n', description: 'issues and pull/merge requests to fetch', min: 1, default: 30 }),
    details: Flags.integer({
      description: 'pull/merge requests (Jira: issues) whose diffs, comments and discussions are fetched',
      min: 0,
      default: 3,
    }),
    'out-dir': Flags.string({ description: 'corpus folder to write into (required)', aliases: ['out'] }),
    // -o is an output file in every other command; here it would have meant a folder.
    output: Flags.string({ char: 'o', hidden: true }),
    ...connectionFlags,
  };

  async run(): Promise<void> {
    const { flags } = await this.parse(Record);
    if (flags.output !== undefined) throw new UsageError('-o names an output file in devboy; record writes a folder: use --out-dir DIR');
    if (flags['out-dir'] === undefined) throw new UsageError('--out-dir DIR is required: the corpus folder to write into');
    const result = await recordLive({
      provider: flags.provider as ProviderName,
      outDir: flags['out-dir'],
      limit: flags.limit,
      details: flags.details,
      ...(flags.owner ? { owner: flags.owner } : {}),
      ...(flags.repo ? { repo: flags.repo } : {}),
      ...(flags.project ? { project: flags.project } : {}),
      ...(flags.jql ? { jql: flags.jql } : {}),
      ...connectionOptions(flags),
      onProgress: (event) => {
        const note = retryNote(event);
        if (note) this.writeStderr(`${note}\n`);
      },
    });
    const { recordedText } = await import('../src/report/record-text.js');
    await this.writeStdout(recordedText(result, widthOption().width));
    // The recording is written; what the manifest could not list is named, not fatal.
    for (const s of result.unlisted)
      this.writeStderr(`devboy record: MANIFEST.tsv leaves out a recording that cannot be read: ${terminalText(skippedText(s))}\n`);
  }
}

/** Waiting silently for a rate limit to reset would look like a hang. */
function retryNote(event: ProgressEvent): string | undefined {
  if (event.type !== 'retry') return undefined;
  const why =
    event.reason === 'rate-limit'
      ? `rate limited (${event.status})`
      : event.reason === 'server-error'
        ? `server error ${event.status}`
        : event.reason === 'timeout'
          ? 'no answer in time'
          : 'cannot connect';
  return `devboy record: ${why} for ${event.method} ${event.url}; retry ${event.retry} in ${formatMs(event.waitMs)}`;
}
