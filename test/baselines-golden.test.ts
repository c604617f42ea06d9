import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { FORMAT_INFO } from '../src/formats/info.js';
import { lossReport, lossSummary } from '../src/formats/loss.js';
import { FORMAT_NAMES, loadFormat } from '../src/formats/registry.js';
import { verifyRoundTrip } from '../src/formats/verify.js';
import type { JsonValue } from '../src/json/types.js';
import type { Dataset, DatasetKind, ProviderName } from '../src/model/index.js';
import { loadCorpusDatasets } from '../src/providers/load.js';
import { datasetAtLevel, type Level } from '../src/trim/levels.js';
import { corpusDir, FIXTURES } from './helpers/paths.js';

// Golden texts of every baseline over a few real corpus shapes, replayed through the real clients
// and cut to a few items: what each format writes, byte for byte, and what its round trip loses.
// A change to a writer (a library upgrade, an option) is a reviewed change to these files:
// UPDATE_GOLDEN=1 node --test dist/test/baselines-golden.test.js rewrites them, as the report
// exporters' goldens are rewritten (test/report-exporters.test.ts).

const DIR = join(FIXTURES, 'baselines');
const BASELINES = FORMAT_NAMES.filter((n) => FORMAT_INFO[n].role === 'baseline');

interface Shape {
  /** The golden folder's name. */
  name: string;
  provider: ProviderName;
  project: string;
  kind: DatasetKind;
  /** The dataset's request, as the benchmark titles it (its start: joined single GETs add a count). */
  label: string;
  level: Level;
  /** The first items kept. */
  items: number;
  /** The project's recordings that feed the dataset: the rest of the project is not replayed. */
  recordings: string[];
}

const SHAPES: Shape[] = [
  {
    name: 'github-issues-standard',
    provider: 'github',
    project: 'betamaxpy__betamax',
    kind: 'issues',
    label: 'GET /repos/betamaxpy/betamax/issues?direction=asc&per_page=100',
    level: 'standard',
    items: 3,
    recordings: ['001_GET_repos_betamaxpy_betamax_issues_direction_asc_per_page_100.json'],
  },
  {
    name: 'gitlab-merge-request-full',
    provider: 'gitlab',
    project: 'dev.gitlab.org__gitlab__gitlabhq',
    kind: 'merge_requests',
    label: 'GET /api/v4/projects/gitlab%2Fgitlabhq/merge_requests/2387',
    level: 'full',
    items: 1,
    recordings: [
      '002_GET_api_v4_projects_gitlab_2Fgitlabhq_merge_requests_2387.json',
      '003_GET_api_v4_projects_gitlab_2Fgitlabhq_merge_requests_2387.json',
    ],
  },
  {
    name: 'jira-issues-minimal',
    provider: 'jira',
    project: 'AC',
    kind: 'issues',
    label: 'GET /rest/api/2/issue/AC-1071',
    level: 'minimal',
    items: 3,
    recordings: ['001_GET_rest_api_2_issue_AC_1071.json', '002_GET_rest_api_2_issue_AC_1101.json', '003_GET_rest_api_2_issue_AC_1107.json'],
  },
  {
    name: 'github-diff-full',
    provider: 'github',
    project: 'rust-lang__triagebot',
    kind: 'diffs',
    label: 'GET /repos/rust-lang/triagebot/pulls/2487/files?per_page=100',
    level: 'full',
    items: 3,
    recordings: ['000_GET_repos_rust_lang_triagebot_pulls_2487_files_per_page_100.json'],
  },
  {
    name: 'gitlab-discussion-full',
    provider: 'gitlab',
    project: 'gitlab-org__gitlab-foss',
    kind: 'discussions',
    label: 'GET /api/v4/projects/gitlab-org%2Fgitlab-foss/merge_requests/27117/discussions',
    level: 'full',
    items: 1,
    recordings: ['006_GET_api_v4_projects_gitlab_org_2Fgitlab_foss_merge_requests_27117_discussions.json'],
  },
];

const replayed = new Map<string, Promise<Dataset[]>>();
const corpora = mkdtempSync(join(tmpdir(), 'devboy-baselines-golden-'));
after(() => rmSync(corpora, { recursive: true, force: true }));

/** A corpus of the shape's recordings alone, in their project's folder. */
function corpusOf(shape: Shape): string {
  const folder = join(corpora, shape.name);
  mkdirSync(join(folder, shape.provider, shape.project), { recursive: true });
  for (const file of shape.recordings)
    copyFileSync(join(corpusDir(), shape.provider, shape.project, file), join(folder, shape.provider, shape.project, file));
  return folder;
}

/** The shape's items, replayed from its recordings of the embedded corpus (once per process). */
async function itemsOf(shape: Shape): Promise<JsonValue[]> {
  const key = shape.name;
  let datasets = replayed.get(key);
  if (!datasets) replayed.set(key, (datasets = loadCorpusDatasets(corpusOf(shape), { provider: shape.provider, project: shape.project })));
  const matching = (await datasets).filter((d) => d.kind === shape.kind && d.label.startsWith(shape.label));
  assert.equal(matching.length, 1, `${shape.name}: ${matching.length} datasets match ${shape.label}`);
  const items = datasetAtLevel(matching[0]!, shape.level).slice(0, shape.items);
  assert.equal(items.length, shape.items, `${shape.name}: the dataset has fewer items than the golden keeps`);
  return items;
}

function golden(folder: string, file: string, actual: string): string {
  const path = join(DIR, folder, file);
  if (process.env.UPDATE_GOLDEN) {
    mkdirSync(join(DIR, folder), { recursive: true });
    writeFileSync(path, actual);
  }
  return readFileSync(path, 'utf8');
}

describe('the baselines over real corpus shapes, against golden files (UPDATE_GOLDEN=1 rewrites them)', () => {
  for (const shape of SHAPES) {
    describe(`${shape.name}: ${shape.items} ${shape.kind} at ${shape.level} level`, () => {
      it('input: the items as replayed and trimmed (so a change of level or normalizer shows here first)', async () => {
        const actual = `${JSON.stringify(await itemsOf(shape), null, 2)}\n`;
        assert.equal(actual, golden(shape.name, 'input.json', actual));
      });

      for (const name of BASELINES) {
        it(`${name}: the text, byte for byte`, async () => {
          const format = await loadFormat(name);
          const actual = format.encode(await itemsOf(shape));
          const expected = golden(shape.name, `${name}${FORMAT_INFO[name].extension}`, actual);
          assert.ok(Buffer.from(actual, 'utf8').equals(Buffer.from(expected, 'utf8')), `${shape.name}/${name} differs`);
          assert.equal(actual, expected);
        });
      }

      it('what each round trip loses: verify and the loss report', async () => {
        const items = await itemsOf(shape);
        const lines: string[] = [];
        for (const name of BASELINES) {
          const format = await loadFormat(name);
          const check = verifyRoundTrip(format, items);
          if (check.lossless) {
            lines.push(`${name}: lossless`);
            continue;
          }
          let back: JsonValue | undefined;
          try {
            back = format.decode(format.encode(items));
          } catch {
            // verify's reason says why it was unreadable
          }
          const loss = back === undefined ? undefined : lossReport(items, back);
          lines.push(`${name}: ${check.reason}`);
          if (loss) lines.push(`  ${lossSummary(loss, loss.paths.length)}`);
        }
        const actual = `${lines.join('\n')}\n`;
        assert.equal(actual, golden(shape.name, 'losses.txt', actual));
      });
    });
  }
});
