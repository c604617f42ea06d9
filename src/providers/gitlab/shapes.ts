import { each, has, type ItemShape } from '../item-shape.js';
import { gitlabDiff, gitlabDiscussion, gitlabIssue, gitlabMergeRequest, gitlabNote } from './normalize.js';

/** GitLab payloads, by the fields only they have: `iid`, `new_path`, `notes`, `noteable_type`. */
export const GITLAB_SHAPES: readonly ItemShape[] = [
  {
    name: 'GitLab merge requests',
    provider: 'gitlab',
    kind: 'merge_requests',
    aligned: true,
    normalize: each(gitlabMergeRequest),
    test: (o) => has(o, 'iid', 'source_branch'),
  },
  {
    name: 'GitLab issues',
    provider: 'gitlab',
    kind: 'issues',
    aligned: true,
    normalize: each(gitlabIssue),
    test: (o) => has(o, 'iid', 'title'),
  },
  {
    name: 'GitLab diffs',
    provider: 'gitlab',
    kind: 'diffs',
    aligned: true,
    normalize: each(gitlabDiff),
    test: (o) => (has(o, 'new_path') || has(o, 'old_path')) && has(o, 'diff'),
  },
  {
    name: 'GitLab discussions',
    provider: 'gitlab',
    kind: 'discussions',
    aligned: true,
    normalize: each(gitlabDiscussion),
    test: (o) => has(o, 'id', 'notes') && Array.isArray(o.notes),
  },
  {
    name: 'GitLab notes',
    provider: 'gitlab',
    kind: 'comments',
    aligned: true,
    normalize: each((v) => gitlabNote(v)),
    test: (o) => has(o, 'id', 'body', 'noteable_type'),
  },
];
