import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { JsonObject, JsonValue } from '../../src/json/types.js';
import { corpusDir } from './paths.js';

/**
 * A held-out corpus of the recordings issue 21 found devboy crashing on or losing, built from a
 * real GitHub issues page (betamax 003: 49 issues and 51 pull requests) in a fresh temporary folder:
 *
 * - `_search`: a search whose 30 items are all pull requests (`q=is:pr language:C++`);
 * - `acme__web`: an HTML login page with `content-type: text/html`;
 * - `acme__日本語`: a URL and file name outside Latin-1;
 * - `ünïcødé_€`: a project folder outside Latin-1 (what `record --project 'PRØJ€CT'` writes);
 * - `acme__s42`: a recorded status 42;
 * - `acme__hdr`: a recorded header name with a space;
 * - `acme__loop`: a page whose `rel="next"` is its own URL;
 * - `acme__good`: one good recording.
 *
 * Every file is named in HOSTILE_FILES with what must become of it: measured (it feeds a dataset),
 * or listed as skipped (it could not be read or replayed) with its reason.
 */

const SOURCE = 'github/betamaxpy__betamax/003_GET_repos_betamaxpy_betamax_issues_state_all_per_page_100.json';

export const HOSTILE_FILES = {
  'github/_search/000_GET_search_issues_q_lang_C++.json': 'measured',
  'github/acme__web/000_GET_repos_acme_web_issues.json': 'skipped',
  'github/acme__日本語/000_GET_repos_acme_日本語_issues.json': 'measured',
  'github/ünïcødé_€/000_GET_repos_u_e_issues.json': 'measured',
  'github/acme__s42/000_GET_repos_acme_s42_issues.json': 'skipped',
  'github/acme__hdr/000_GET_repos_acme_hdr_issues.json': 'skipped',
  'github/acme__loop/000_GET_repos_acme_loop_issues.json': 'measured',
  'github/acme__good/000_GET_repos_acme_good_issues.json': 'measured',
} as const satisfies Record<string, 'measured' | 'skipped' | 'not measured'>;

/** The items of the source page: issues and pull requests as GitHub's issues API lists them. */
export function sourceItems(): JsonObject[] {
  return (JSON.parse(readFileSync(join(corpusDir(), SOURCE), 'utf8')) as { response: { body: JsonObject[] } }).response.body;
}

/** The source page's issues and its pull requests, apart, each in list order. */
export function sourceIssuesAndPulls(): { issues: JsonObject[]; prs: JsonObject[] } {
  const items = sourceItems();
  return { issues: items.filter((i) => !('pull_request' in i)), prs: items.filter((i) => 'pull_request' in i) };
}

export function makeHostileCorpus(prefix = 'devboy-hostile-'): string {
  const root = mkdtempSync(join(tmpdir(), prefix));
  const src = JSON.parse(readFileSync(join(corpusDir(), SOURCE), 'utf8')) as { response: { body: JsonObject[] }; provenance: JsonObject };
  const items = src.response.body;
  const prs = items.filter((i) => 'pull_request' in i).slice(0, 30);
  const issues = items.filter((i) => !('pull_request' in i));
  const exchange = (project: string, url: string, body: JsonValue, headers: Record<string, string> = {}, status = 200) => ({
    provider: 'github',
    project,
    request: { method: 'GET', url },
    response: { status, headers: { 'content-type': 'application/json; charset=utf-8', ...headers }, body },
    provenance: src.provenance,
  });
  const put = (file: string, value: unknown) => {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), JSON.stringify(value));
  };
  const [search, web, japanese, unicode, s42, hdr, loop, good] = Object.keys(HOSTILE_FILES) as (keyof typeof HOSTILE_FILES)[];
  put(
    search!,
    exchange('_search', 'https://api.github.com/search/issues?q=is:pr+language:C%2B%2B&per_page=30', {
      total_count: 30,
      incomplete_results: false,
      items: prs,
    }),
  );
  put(
    web!,
    exchange('acme__web', 'https://api.github.com/repos/acme/web/issues?state=all', '<html><body>Sign in</body></html>', {
      'content-type': 'text/html',
    }),
  );
  put(japanese!, exchange('acme__日本語', 'https://api.github.com/repos/acme/日本語/issues?state=all', issues.slice(0, 5)));
  put(unicode!, exchange('ünïcødé_€', 'https://api.github.com/repos/u/e/issues?state=all', issues.slice(5, 10)));
  put(s42!, exchange('acme__s42', 'https://api.github.com/repos/acme/s42/issues?state=all', issues.slice(0, 3), {}, 42));
  put(hdr!, exchange('acme__hdr', 'https://api.github.com/repos/acme/hdr/issues?state=all', issues.slice(0, 3), { 'x bad header': 'v' }));
  const loopUrl = 'https://api.github.com/repos/acme/loop/issues?state=all&per_page=5';
  put(loop!, exchange('acme__loop', loopUrl, issues.slice(0, 5), { link: `<${loopUrl}>; rel="next"` }));
  put(good!, exchange('acme__good', 'https://api.github.com/repos/acme/good/issues?state=all', issues.slice(10, 20)));
  return root;
}
