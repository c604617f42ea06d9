import { readFileSync } from 'node:fs';
import { UsageError } from '../errors.js';
import { pickToken } from '../providers/credentials.js';

/**
 * Where `devboy compare --comment` posts: the pull request of a GitHub Actions run, or the merge
 * request of a GitLab CI pipeline, read from the variables each CI sets. The token is read from the
 * environment (or --token) and is only ever sent to `apiUrl`'s origin (devboy's transport refuses
 * any other).
 */
export type CommentTarget =
  | { host: 'github'; apiUrl: string; token: string; owner: string; repo: string; number: number; runUrl?: string }
  | { host: 'gitlab'; apiUrl: string; token: string; project: string; iid: number; runUrl?: string };

export function commentTarget(env: NodeJS.ProcessEnv, token?: string): CommentTarget {
  if (env['GITHUB_ACTIONS'] === 'true' || (env['GITHUB_REPOSITORY'] && env['GITHUB_EVENT_PATH'])) return githubTarget(env, token);
  if (env['GITLAB_CI'] === 'true' || env['CI_MERGE_REQUEST_IID']) return gitlabTarget(env, token);
  throw new UsageError(
    '--comment posts to the pull request of a GitHub Actions run (GITHUB_REPOSITORY, GITHUB_EVENT_PATH, GITHUB_TOKEN) or the merge request of a GitLab pipeline (CI_PROJECT_ID, CI_MERGE_REQUEST_IID, GITLAB_TOKEN); neither is set',
  );
}

function githubTarget(env: NodeJS.ProcessEnv, flagToken: string | undefined): CommentTarget {
  const repository = env['GITHUB_REPOSITORY'] ?? '';
  const [owner, repo, extra] = repository.split('/');
  if (!owner || !repo || extra !== undefined) throw new UsageError(`--comment: GITHUB_REPOSITORY must be OWNER/REPO, got '${repository}'`);
  const token = pickToken(['--token', flagToken], ['GITHUB_TOKEN', env['GITHUB_TOKEN']]);
  if (!token) throw new UsageError('--comment needs a token that may write pull-request comments: GITHUB_TOKEN (or --token)');
  const number = pullRequestNumber(env['GITHUB_EVENT_PATH']);
  const server = env['GITHUB_SERVER_URL'];
  const runUrl =
    server && env['GITHUB_RUN_ID'] ? `${server.replace(/\/+$/, '')}/${owner}/${repo}/actions/runs/${env['GITHUB_RUN_ID']}` : undefined;
  return {
    host: 'github',
    apiUrl: env['GITHUB_API_URL'] || 'https://api.github.com',
    token,
    owner,
    repo,
    number,
    ...(runUrl ? { runUrl } : {}),
  };
}

/** The pull request's number from the event that started the run (pull_request, pull_request_target, issue_comment). */
function pullRequestNumber(path: string | undefined): number {
  if (!path) throw new UsageError('--comment: GITHUB_EVENT_PATH is not set, so the pull request is unknown');
  let event: unknown;
  try {
    event = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`--comment: cannot read the event file ${path}: ${(err as Error).message}`);
  }
  const e = event as { pull_request?: { number?: unknown }; issue?: { number?: unknown; pull_request?: unknown }; number?: unknown };
  const n = e.pull_request?.number ?? (e.issue?.pull_request ? e.issue.number : undefined) ?? e.number;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1)
    throw new UsageError(`--comment: the event in ${path} is not about a pull request (run on pull_request events)`);
  return n;
}

function gitlabTarget(env: NodeJS.ProcessEnv, flagToken: string | undefined): CommentTarget {
  const project = env['CI_PROJECT_ID'];
  const iid = Number(env['CI_MERGE_REQUEST_IID']);
  if (!project) throw new UsageError('--comment: CI_PROJECT_ID is not set');
  if (!Number.isInteger(iid) || iid < 1)
    throw new UsageError('--comment: CI_MERGE_REQUEST_IID is not set; run the job in a merge request pipeline');
  // A job token cannot write notes: a project or personal access token with the api scope can.
  const token = pickToken(['--token', flagToken], ['GITLAB_TOKEN', env['GITLAB_TOKEN']]);
  if (!token)
    throw new UsageError('--comment needs a GitLab token with the api scope: GITLAB_TOKEN (or --token); CI_JOB_TOKEN cannot write notes');
  const api = env['CI_API_V4_URL'];
  const apiUrl = api ? api.replace(/\/api\/v4\/?$/, '') : (env['CI_SERVER_URL'] ?? 'https://gitlab.com');
  return { host: 'gitlab', apiUrl, token, project, iid, ...(env['CI_JOB_URL'] ? { runUrl: env['CI_JOB_URL'] } : {}) };
}
