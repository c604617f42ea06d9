import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { readCorpus } from '../src/replay/corpus.js';
import type { CorpusEntry } from '../src/replay/exchange.js';
import {
  closestRecording,
  indexRecordings,
  matchRequest,
  normalizePath,
  selectAnswered,
  type RecordingIndex,
} from '../src/replay/match.js';
import { CORPUS_DIR } from './helpers/recordings.js';

const recordings: Record<string, RecordingIndex> = {};
const entries: Record<string, CorpusEntry[]> = {};

before(async () => {
  for (const p of await readCorpus(CORPUS_DIR)) {
    entries[p.project] = p.entries;
    recordings[p.project] = indexRecordings(p.entries);
  }
});

function answer(project: string, url: string): string | undefined {
  return matchRequest(recordings[project]!, 'GET', url)?.recording.entry.file.split('/').pop();
}

describe('which recording answers a request', () => {
  it('tolerates a per_page the recording lacks', () => {
    assert.equal(
      answer('octokit__octokit.rb', '/repos/octokit/octokit.rb/pulls/67/files?per_page=100'),
      '023_GET_repos_octokit_octokit_rb_pulls_67_files.json',
    );
  });

  it('prefers fewer one-sided parameters, then the newest recording', () => {
    // Both candidates differ by one parameter (direction=asc vs state=all); 001 was recorded 2 s after 003.
    assert.equal(
      answer('betamaxpy__betamax', '/repos/betamaxpy/betamax/issues?per_page=100'),
      '001_GET_repos_betamaxpy_betamax_issues_direction_asc_per_page_100.json',
    );
    assert.equal(
      answer('betamaxpy__betamax', '/repos/betamaxpy/betamax/issues?state=all&per_page=100'),
      '003_GET_repos_betamaxpy_betamax_issues_state_all_per_page_100.json',
    );
  });

  it('rejects a recording whose parameter has another value', () => {
    // /pulls?state=closed conflicts; /pulls (no state) is only one-sided.
    assert.equal(
      answer('octokit__octokit.rb', '/repos/octokit/octokit.rb/pulls?state=merged'),
      '026_GET_repos_octokit_octokit_rb_pulls.json',
    );
    assert.equal(
      answer('octokit__octokit.rb', '/repos/octokit/octokit.rb/pulls?state=closed'),
      '029_GET_repos_octokit_octokit_rb_pulls_state_closed.json',
    );
  });

  it('treats page and startAt as positions with defaults', () => {
    const page2 = '/repositories/11439734/issues?state=all&per_page=100&page=2';
    assert.equal(answer('betamaxpy__betamax', page2), '004_GET_repositories_11439734_issues_state_all_per_page_100_page_2.json');
    assert.equal(answer('betamaxpy__betamax', page2.replace('page=2', 'page=3')), undefined);
    assert.equal(
      answer('betamaxpy__betamax', '/repos/betamaxpy/betamax/issues?state=all&per_page=100&page=1'),
      '003_GET_repos_betamaxpy_betamax_issues_state_all_per_page_100.json',
    );
    assert.equal(
      answer('ALOY', '/rest/api/2/search?jql=project%3DALOY+ORDER+BY+key+ASC&startAt=50&maxResults=50'),
      '002_GET_rest_api_2_search_jql_project_3DALOY_20ORDER_20BY_20key_20ASC_startAt_50_maxResults_50.json',
    );
    assert.equal(
      answer('ALOY', '/rest/api/2/search?jql=project%3DALOY+ORDER+BY+key+ASC'),
      '000_GET_rest_api_2_search_jql_project_3DALOY_20ORDER_20BY_20key_20ASC_startAt_0_maxResults_50.json',
    );
  });

  it('answers a URL recorded several times with the newest recording', () => {
    // 026 (2020), 027 (2014), 028 (2013) all recorded GET /repos/octokit/octokit.rb/pulls.
    assert.equal(answer('octokit__octokit.rb', '/repos/octokit/octokit.rb/pulls'), '026_GET_repos_octokit_octokit_rb_pulls.json');
    // 404 from gitlab.com at 08:08:25, 200 from dev.gitlab.org at 08:08:28: the host is not compared, the later wins.
    assert.equal(
      answer('dev.gitlab.org__gitlab__gitlabhq', '/api/v4/projects/gitlab%2Fgitlabhq/merge_requests/2387'),
      '003_GET_api_v4_projects_gitlab_2Fgitlabhq_merge_requests_2387.json',
    );
  });

  it('answers a GitLab v4 request from a v3 recording of the same path', () => {
    assert.equal(
      answer('gitlab-org__gitlab-foss', '/api/v4/projects/13083/issues?labels=release&page=1'),
      '020_GET_api_v3_projects_13083_issues_labels_release.json',
    );
  });

  it('compares paths after decoding unreserved escapes, and ignores credentials in the query', () => {
    assert.equal(normalizePath('/projects/gitlab%2Dorg%2fgitlab%2Dfoss/issues/'), '/projects/gitlab-org%2Fgitlab-foss/issues');
    assert.equal(
      answer('gitlab-org__gitlab-foss', '/api/v4/projects/gitlab%2Dorg%2Fgitlab%2Dfoss/merge_requests/27117/notes?private_token=abc'),
      '008_GET_api_v4_projects_gitlab_org_2Fgitlab_foss_merge_requests_27117_notes.json',
    );
  });

  it('names the closest recorded URL for a request with none', () => {
    const closest = closestRecording(recordings['betamaxpy__betamax']!, 'GET', '/repos/betamaxpy/betamax/issue?state=all');
    assert.equal(closest?.entry.exchange.request.url, 'https://api.github.com/repos/betamaxpy/betamax/issues?state=all&per_page=100');
  });

  it('resolves the distinct requests of a corpus the way the server answers them', () => {
    const files = selectAnswered(entries['octokit__octokit.rb']!).map((e) => e.file.split('/').pop()!);
    assert.ok(files.includes('026_GET_repos_octokit_octokit_rb_pulls.json'));
    assert.ok(
      !files.includes('027_GET_repos_octokit_octokit_rb_pulls.json') && !files.includes('028_GET_repos_octokit_octokit_rb_pulls.json'),
    );
    assert.equal(files.length, new Set(entries['octokit__octokit.rb']!.map((e) => e.exchange.request.url)).size);
  });
});
