import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { JsonObject } from '../src/json/types.js';
import { lastLineOfHunk } from '../src/providers/diff-hunk.js';
import { githubReviewThreads, reviewPosition } from '../src/providers/github/normalize.js';
import { gitlabDiscussion, gitlabMergeRequest, gitlabPosition } from '../src/providers/gitlab/normalize.js';
import { adfToText } from '../src/providers/jira/adf.js';
import { recordedBody, recordedList } from './helpers/recordings.js';

describe('positions of review comments', () => {
  it('the line read from the diff hunk is the line GitHub reports, for all 30 comments of a real page', async () => {
    const comments = await recordedList('github/octokit__octokit.rb/024_GET_repos_octokit_octokit_rb_pulls_comments.json');
    for (const c of comments)
      assert.equal(lastLineOfHunk(c['diff_hunk'] as string)?.line, c['original_line'], `comment ${String(c['id'])}`);
  });

  it('a 2014 payload without line numbers yields the positions of the 2020 payload of the same comments', async () => {
    const recent = await recordedList('github/octokit__octokit.rb/024_GET_repos_octokit_octokit_rb_pulls_comments.json');
    const old = await recordedList('github/octokit__octokit.rb/025_GET_repos_octokit_octokit_rb_pulls_comments.json');
    const byId = new Map(recent.map((c) => [c['id'], c]));
    let compared = 0;
    for (const c of old) {
      const twin = byId.get(c['id']);
      if (!twin) continue;
      assert.ok(!('original_line' in c), 'the old payload has no line fields');
      const before = reviewPosition(c)!;
      const now = reviewPosition(twin)!;
      assert.deepEqual([before.file_path, before.line], [now.file_path, now.line]);
      compared++;
    }
    assert.equal(compared, 7);
  });

  it('GitLab note positions: new, old or context line, anchored to the head commit', () => {
    const base = { base_sha: 'a', start_sha: 'b', head_sha: 'c0ffee', position_type: 'text', old_path: 'app/x.rb', new_path: 'app/x.rb' };
    assert.deepEqual(gitlabPosition({ ...base, new_line: 12, old_line: null }), {
      file_path: 'app/x.rb',
      line: 12,
      line_type: 'new',
      commit_sha: 'c0ffee',
    });
    assert.deepEqual(gitlabPosition({ ...base, new_line: null, old_line: 7 }), {
      file_path: 'app/x.rb',
      line: 7,
      line_type: 'old',
      commit_sha: 'c0ffee',
    });
    assert.equal(gitlabPosition({ ...base, new_line: 9, old_line: 8 })?.line_type, 'context');
    assert.equal(gitlabPosition({ ...base, position_type: 'image' }), undefined);
  });
});

describe('threads', () => {
  it('GitHub replies (in_reply_to_id) join their thread, in order; the thread carries the position', async () => {
    // The corpus has no replies, so three real comments are made replies of a fourth.
    const comments = (await recordedList('github/octokit__octokit.rb/024_GET_repos_octokit_octokit_rb_pulls_comments.json')).slice(0, 6);
    const root = comments[1]!['id']!;
    const withReplies = comments.map((c, i) =>
      i === 2 || i === 4 ? { ...c, in_reply_to_id: root } : i === 5 ? { ...c, in_reply_to_id: comments[4]!['id']! } : c,
    );
    const threads = githubReviewThreads(withReplies);
    assert.equal(threads.length, 3);
    assert.deepEqual(
      threads[1]!.comments.map((c) => c.id),
      [1, 2, 4, 5].map((i) => String(comments[i]!['id'])),
    );
    assert.equal(threads[1]!.resolved, false);
    assert.ok(threads[1]!.position && threads[1]!.comments.every((c) => c.position === undefined));
  });

  it('GitLab: a discussion is resolved when all its resolvable notes are', async () => {
    const [discussion] = await recordedList(
      'gitlab/gitlab-org__gitlab-foss/006_GET_api_v4_projects_gitlab_org_2Fgitlab_foss_merge_requests_27117_discussions.json',
    );
    const note = (discussion!['notes'] as JsonObject[])[0]!;
    assert.equal(gitlabDiscussion(discussion!).resolved, false, 'a system note is not resolvable');
    const resolver = note['author'] as JsonObject;
    const resolvable = {
      ...discussion!,
      notes: [
        { ...note, resolvable: true, resolved: true, resolved_by: resolver },
        { ...note, id: 2, resolvable: true, resolved: false },
      ],
    };
    assert.equal(gitlabDiscussion(resolvable).resolved, false);
    const done = { ...resolvable, notes: (resolvable.notes as JsonObject[]).map((n) => ({ ...n, resolved: true, resolved_by: resolver })) };
    const d = gitlabDiscussion(done);
    assert.equal(d.resolved, true);
    assert.equal(d.resolved_by?.username, 'gitlab-bot');
    assert.equal(d.comments.length, 2);
  });
});

describe('GitLab merge request shapes', () => {
  it('v4: draft, reviewers and assignees as sent', async () => {
    const mr = gitlabMergeRequest(
      (await recordedBody('gitlab/dev.gitlab.org__gitlab__gitlabhq/001_GET_api_v4_projects_gitlab_2Fgitlabhq_merge_requests_2388.json'))!,
    );
    assert.equal(mr.key, 'mr#2388');
    assert.equal(mr.state, 'merged');
    assert.equal(mr.target_branch, 'security-10-8');
    assert.equal(mr.draft, false);
  });

  it('work_in_progress (older GitLab) means draft', async () => {
    const [mr] = await recordedList(
      'gitlab/gitlab-org__gitlab-foss/002_GET_api_v4_projects_gitlab_org_2Fgitlab_foss_merge_requests_labels_Delivery_state_opened.json',
    );
    assert.equal(mr!['work_in_progress'], true);
    const { draft: _drop, ...older } = mr!;
    assert.equal(gitlabMergeRequest(older).draft, true);
    assert.equal(gitlabMergeRequest(older).state, 'open');
  });
});

describe('Atlassian Document Format to text', () => {
  it('keeps the visible text of paragraphs, lists, code, mentions, links and emoji', () => {
    const doc = {
      type: 'doc',
      version: 1,
      content: [
        { type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Steps' }] },
        {
          type: 'paragraph',
          content: [
            { type: 'text', text: 'Ask ' },
            { type: 'mention', attrs: { id: '5b10', text: '@Ada Lovelace' } },
            { type: 'text', text: ' first' },
            { type: 'hardBreak' },
            { type: 'text', text: 'then wait ' },
            { type: 'emoji', attrs: { shortName: ':clock:', text: '🕐' } },
          ],
        },
        {
          type: 'orderedList',
          attrs: { order: 1 },
          content: [
            { type: 'listItem', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'build', marks: [{ type: 'strong' }] }] }] },
            {
              type: 'listItem',
              content: [
                {
                  type: 'paragraph',
                  content: [
                    { type: 'text', text: 'see ' },
                    { type: 'inlineCard', attrs: { url: 'https://example.com/ci' } },
                  ],
                },
              ],
            },
          ],
        },
        { type: 'codeBlock', attrs: { language: 'sh' }, content: [{ type: 'text', text: 'npm test\nnpm run build' }] },
        { type: 'mediaSingle', content: [{ type: 'media', attrs: { id: 'x', type: 'file' } }] },
      ],
    };
    assert.equal(
      adfToText(doc),
      'Steps\n\nAsk @Ada Lovelace first\nthen wait 🕐\n\n1. build\n2. see https://example.com/ci\n\nnpm test\nnpm run build',
    );
  });

  it('passes strings through (REST v2 wiki markup) and empties what is not ADF', () => {
    assert.equal(adfToText('h2. Title\n*bold*'), 'h2. Title\n*bold*');
    assert.equal(adfToText({ type: 'paragraph' }), '');
  });
});
