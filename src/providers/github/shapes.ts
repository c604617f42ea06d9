import { each, has, str, type ItemShape } from '../item-shape.js';
import {
  githubComment,
  githubFile,
  githubIssuePulls,
  githubIssues,
  githubPull,
  githubReviewThreads,
  isPullRequestItem,
  pullRequestItemKeys,
} from './normalize.js';

/** GitHub payloads, by the fields only they have: `head`/`base`, `user`, `filename`, `diff_hunk`. */
export const GITHUB_SHAPES: readonly ItemShape[] = [
  {
    name: 'GitHub pull requests',
    provider: 'github',
    kind: 'merge_requests',
    aligned: true,
    normalize: each(githubPull),
    test: (o) => has(o, 'number', 'head', 'base'),
  },
  {
    name: 'GitHub issues',
    provider: 'github',
    kind: 'issues',
    aligned: true,
    normalize: githubIssues,
    // GitHub's issue lists also return pull requests; devboy reads those from the pulls endpoint, so
    // they are not issues here: the same rule as the client's (docs/providers.md).
    drop: { test: isPullRequestItem, what: 'pull requests', keys: pullRequestItemKeys },
    // A list of pull requests only (an `is:pr` search) is merge requests, as the client measures it.
    allDropped: { name: 'GitHub pull requests (issues API)', kind: 'merge_requests', normalize: githubIssuePulls },
    test: (o) => has(o, 'number', 'title') && (has(o, 'user') || has(o, 'html_url')),
  },
  {
    name: 'GitHub pull request files',
    provider: 'github',
    kind: 'diffs',
    aligned: true,
    normalize: each(githubFile),
    test: (o) => str(o, 'filename') && (has(o, 'status') || has(o, 'sha')),
  },
  {
    name: 'GitHub review comments',
    provider: 'github',
    kind: 'discussions',
    aligned: false,
    normalize: githubReviewThreads,
    test: (o) => has(o, 'diff_hunk', 'path', 'id'),
  },
  {
    name: 'GitHub issue comments',
    provider: 'github',
    kind: 'comments',
    aligned: true,
    normalize: each(githubComment),
    test: (o) => has(o, 'id', 'body', 'user'),
  },
];
