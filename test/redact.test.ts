import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { recordableHeaders, redactUrl, scrubSecrets } from '../src/http/redact.js';
import { recording } from './helpers/recordings.js';

describe('secrets never reach recordings', () => {
  it('drops credential query parameters and user info from URLs, and leaves other URLs untouched', async () => {
    const { request } = await recording(
      'gitlab/gitlab-org__gitlab-foss/008_GET_api_v4_projects_gitlab_org_2Fgitlab_foss_merge_requests_27117_notes.json',
    );
    assert.equal(redactUrl(request.url), request.url, 'no re-encoding of a clean URL');
    const withToken = `${request.url}?private_token=glpat-abc123&per_page=100`;
    assert.equal(
      redactUrl(withToken),
      'https://gitlab.com/api/v4/projects/gitlab-org%2Fgitlab-foss/merge_requests/27117/notes?private_token=%5BREDACTED%5D&per_page=100',
    );
    assert.doesNotMatch(redactUrl('https://me:hunter22@jira.example.com/rest/api/2/search?jql=x'), /hunter22|me:/);
  });

  it('keeps pagination and rate-limit headers, drops cookies and auth echoes', async () => {
    const { response } = await recording(
      'gitlab/gitlab-org__gitlab-foss/016_GET_api_v4_projects_gitlab_org_2Fgitlab_foss_issues_labels_Release_milestone_8_5_search_8_5_20Regression.json',
    );
    const live = new Headers({
      ...response.headers,
      'set-cookie': '_gitlab_session=abc',
      'x-oauth-scopes': 'api',
      'private-token': 'echo',
      'x-request-id': 'r1',
    });
    const kept = recordableHeaders(live);
    assert.deepEqual(Object.keys(kept).sort(), Object.keys(response.headers).sort());
    assert.equal(kept['x-total'], '11');
  });

  it('scrubs a secret in plain, URL-encoded and base64 forms', () => {
    const secret = 'me@example.com:tok/en+1';
    const text = `a ${secret} b ${encodeURIComponent(secret)} c ${Buffer.from(secret).toString('base64')}`;
    assert.equal(scrubSecrets(text, [secret, undefined]), 'a [REDACTED] b [REDACTED] c [REDACTED]');
  });
});
