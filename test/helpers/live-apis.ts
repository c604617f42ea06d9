import type { IncomingHttpHeaders } from 'node:http';
import type { JsonObject } from '../../src/json/types.js';
import { recordedBody, recordedList } from './recordings.js';
import { githubLink, pageOf, startFakeApi, type FakeApi, type FakeRequest, type Route } from './fake-api.js';

/** Live-looking GitHub, GitLab and Jira APIs for `record` tests, serving real corpus bodies. */

export const GITHUB_TOKEN = 'ghp_TESTtoken0123456789abcdefSECRET';
export const GITLAB_TOKEN = 'glpat-TESTtoken0123456789SECRET';
export const JIRA_EMAIL = 'recorder@example.com';
export const JIRA_TOKEN = 'ATATTtestTOKEN0123456789SECRET';

const int = (v: string | null, fallback: number) => (v && /^\d+$/.test(v) ? Number(v) : fallback);

export async function startGithubLive(failures: Record<string, number> = {}): Promise<FakeApi> {
  const issues = [
    ...(await recordedList('github/betamaxpy__betamax/003_GET_repos_betamaxpy_betamax_issues_state_all_per_page_100.json')),
    ...(await recordedList('github/betamaxpy__betamax/004_GET_repositories_11439734_issues_state_all_per_page_100_page_2.json')),
  ];
  const pulls = await recordedList(
    'github/sigmavirus24__github3.py/016_GET_repos_sigmavirus24_github3_py_pulls_sort_created_direction_desc_per_page_100.json',
  );
  const files = [
    await recordedList('github/rust-lang__triagebot/000_GET_repos_rust_lang_triagebot_pulls_2487_files_per_page_100.json'),
    await recordedList('github/rust-lang__triagebot/001_GET_repos_rust_lang_triagebot_pulls_2486_files_per_page_100.json'),
    await recordedList('github/rust-lang__triagebot/002_GET_repos_rust_lang_triagebot_pulls_2485_files_per_page_100.json'),
  ];
  const comments = await recordedList('github/artsy__emission/000_GET_repos_artsy_emission_issues_327_comments.json');
  const reviewComments = await recordedList('github/artsy__emission/002_GET_repos_artsy_emission_pulls_327_comments.json');
  const prNumbers = pulls.map((p) => p['number']);
  const paged = (req: FakeRequest, items: readonly JsonObject[]) => {
    const perPage = Math.min(int(req.query.get('per_page'), 30), 100);
    const page = int(req.query.get('page'), 1);
    const link = githubLink(req, page, Math.max(1, Math.ceil(items.length / perPage)));
    const headers: Record<string, string> = link ? { link } : {};
    return { headers, body: pageOf(items, page, perPage) };
  };
  const route: Route = (req) => {
    let m: RegExpExecArray | null;
    if (req.path === '/repos/acme/widgets/issues') return paged(req, issues);
    if (req.path === '/repos/acme/widgets/pulls') return paged(req, pulls);
    if ((m = /^\/repos\/acme\/widgets\/pulls\/(\d+)\/files$/.exec(req.path)))
      return paged(req, files[prNumbers.indexOf(Number(m[1])) % files.length] ?? []);
    if (/^\/repos\/acme\/widgets\/issues\/\d+\/comments$/.test(req.path)) return paged(req, comments);
    if (/^\/repos\/acme\/widgets\/pulls\/\d+\/comments$/.test(req.path)) return paged(req, reviewComments);
    return undefined;
  };
  return startFakeApi(route, { authorize: (h) => h.authorization === `token ${GITHUB_TOKEN}`, failures });
}

export async function startGitlabLive(failures: Record<string, number> = {}): Promise<FakeApi> {
  const issues = await recordedList(
    'gitlab/gitlab-org__gitlab-foss/016_GET_api_v4_projects_gitlab_org_2Fgitlab_foss_issues_labels_Release_milestone_8_5_search_8_5_20Regression.json',
  );
  const mrs = [
    ...(await recordedList(
      'gitlab/gitlab-org__gitlab-foss/002_GET_api_v4_projects_gitlab_org_2Fgitlab_foss_merge_requests_labels_Delivery_state_opened.json',
    )),
    (await recordedBody(
      'gitlab/dev.gitlab.org__gitlab__gitlabhq/001_GET_api_v4_projects_gitlab_2Fgitlabhq_merge_requests_2388.json',
    )) as JsonObject,
    (await recordedBody(
      'gitlab/dev.gitlab.org__gitlab__gitlabhq/003_GET_api_v4_projects_gitlab_2Fgitlabhq_merge_requests_2387.json',
    )) as JsonObject,
  ];
  const diffs = await recordedList(
    'gitlab/rust-lang__triagebot__as-gitlab/004_GET_api_v4_projects_rust_lang_2Ftriagebot_merge_requests_2469_diffs.json',
  );
  const notes = await recordedList(
    'gitlab/gitlab-org__gitlab-foss/008_GET_api_v4_projects_gitlab_org_2Fgitlab_foss_merge_requests_27117_notes.json',
  );
  const discussions = await recordedList(
    'gitlab/gitlab-org__gitlab-foss/006_GET_api_v4_projects_gitlab_org_2Fgitlab_foss_merge_requests_27117_discussions.json',
  );
  const paged = (req: FakeRequest, items: readonly JsonObject[]) => {
    const perPage = Math.min(int(req.query.get('per_page'), 20), 100);
    const page = int(req.query.get('page'), 1);
    const pages = Math.max(1, Math.ceil(items.length / perPage));
    const headers = {
      'x-page': String(page),
      'x-per-page': String(perPage),
      'x-total': String(items.length),
      'x-total-pages': String(pages),
      'x-next-page': page < pages ? String(page + 1) : '',
      'x-prev-page': page > 1 ? String(page - 1) : '',
      'ratelimit-remaining': '1999',
    };
    return { headers, body: pageOf(items, page, perPage) };
  };
  const base = '/api/v4/projects/acme%2Fwidgets';
  const route: Route = (req) => {
    const path = req.path.replace(/%2f/gi, '%2F');
    if (path === `${base}/issues`) return paged(req, issues);
    if (path === `${base}/merge_requests`) return paged(req, mrs);
    if (/\/merge_requests\/\d+\/diffs$/.test(path)) return paged(req, diffs);
    if (/\/merge_requests\/\d+\/notes$/.test(path)) return paged(req, notes);
    if (/\/merge_requests\/\d+\/discussions$/.test(path)) return paged(req, discussions);
    return undefined;
  };
  return startFakeApi(route, { authorize: (h: IncomingHttpHeaders) => h['private-token'] === GITLAB_TOKEN, failures });
}

/** Jira Server-style search (startAt/maxResults/total, at most 50 a page) and comments. */
export async function startJiraLive(failures: Record<string, number> = {}): Promise<FakeApi> {
  const issues: JsonObject[] = [];
  for (const start of ['0', '50', '100']) {
    issues.push(
      ...(await recordedList(
        `jira/ALOY/00${start === '0' ? 0 : start === '50' ? 2 : 1}_GET_rest_api_2_search_jql_project_3DALOY_20ORDER_20BY_20key_20ASC_startAt_${start}_maxResults_50.json`,
        'issues',
      )),
    );
  }
  const basic = `Basic ${Buffer.from(`${JIRA_EMAIL}:${JIRA_TOKEN}`).toString('base64')}`;
  const route: Route = (req) => {
    const startAt = int(req.query.get('startAt'), 0);
    const maxResults = Math.min(int(req.query.get('maxResults'), 50), 50);
    if (req.path === '/rest/api/2/search') {
      return {
        body: { expand: 'schema,names', startAt, maxResults, total: issues.length, issues: issues.slice(startAt, startAt + maxResults) },
      };
    }
    const m = /^\/rest\/api\/2\/issue\/([A-Z]+-\d+)\/comment$/.exec(req.path);
    if (m) {
      const issue = issues.find((i) => i['key'] === m[1]);
      const all = ((issue?.['fields'] as JsonObject | undefined)?.['comment'] as JsonObject | undefined)?.['comments'] as
        JsonObject[] | undefined;
      if (!issue || !all) return undefined;
      return { body: { startAt, maxResults, total: all.length, comments: all.slice(startAt, startAt + maxResults) } };
    }
    return undefined;
  };
  return startFakeApi(route, { authorize: (h) => h.authorization === basic, failures });
}
