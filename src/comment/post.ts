import { DataError } from '../errors.js';
import { createTransport, type HttpOptions, type Transport } from '../http/transport.js';
import type { CommentTarget } from './target.js';

/** The first line of every comment devboy writes: how the next run finds it to update it, not add another. */
export const COMMENT_MARKER = '<!-- devboy compare -->';

/** Comments read at most to find devboy's own: 20 API pages of 100. */
const MAX_PAGES = 20;

export interface CommentResult {
  action: 'created' | 'updated' | 'skipped';
  /** The comment (GitHub) or note (GitLab) id, when one was written. */
  id?: number;
}

export interface CommentOptions {
  /** `regression`: post only when the gate failed; a comment from an earlier run is still brought up to date. */
  on: 'always' | 'regression';
  passed: boolean;
  http?: HttpOptions;
}

/**
 * Create devboy's comment on the pull request (or note on the merge request), or update the one an
 * earlier run wrote (found by COMMENT_MARKER), through the same client libraries devboy reads the
 * providers with (Octokit, Gitbeaker), on devboy's transport.
 */
export async function postComment(target: CommentTarget, body: string, options: CommentOptions): Promise<CommentResult> {
  const text = body.startsWith(COMMENT_MARKER) ? body : `${COMMENT_MARKER}\n${body}`;
  const transport = createTransport(target.apiUrl, options.http);
  try {
    const api = target.host === 'github' ? await githubApi(target, transport) : await gitlabApi(target, transport);
    const existing = await api.find();
    if (existing !== undefined) {
      await api.update(existing, text);
      return { action: 'updated', id: existing };
    }
    if (options.on === 'regression' && options.passed) return { action: 'skipped' };
    return { action: 'created', id: await api.create(text) };
  } catch (err) {
    throw failure(target, transport, err);
  }
}

interface CommentApi {
  find(): Promise<number | undefined>;
  update(id: number, body: string): Promise<void>;
  create(body: string): Promise<number>;
}

async function githubApi(target: Extract<CommentTarget, { host: 'github' }>, transport: Transport): Promise<CommentApi> {
  const { Octokit } = await import('@octokit/rest');
  const octokit = new Octokit({
    baseUrl: target.apiUrl.replace(/\/+$/, ''),
    auth: target.token,
    userAgent: 'devboy',
    log: { debug() {}, info() {}, warn() {}, error() {} },
    request: { fetch: transport.fetch },
  });
  const where = { owner: target.owner, repo: target.repo };
  return {
    async find() {
      let pages = 0;
      for await (const page of octokit.paginate.iterator(octokit.rest.issues.listComments, {
        ...where,
        issue_number: target.number,
        per_page: 100,
      })) {
        const mine = page.data.find((c) => typeof c.body === 'string' && c.body.startsWith(COMMENT_MARKER));
        if (mine) return mine.id;
        if (++pages >= MAX_PAGES) break;
      }
      return undefined;
    },
    async update(id, body) {
      await octokit.rest.issues.updateComment({ ...where, comment_id: id, body });
    },
    async create(body) {
      return (await octokit.rest.issues.createComment({ ...where, issue_number: target.number, body })).data.id;
    },
  };
}

interface Note {
  id: number;
  body?: string;
}

async function gitlabApi(target: Extract<CommentTarget, { host: 'gitlab' }>, transport: Transport): Promise<CommentApi> {
  const { createGitlabRequesterFn } = await import('../providers/gitlab/requester.js');
  const requesterFn = await createGitlabRequesterFn(transport);
  const { Gitlab } = await import('@gitbeaker/rest');
  const api = new Gitlab({
    host: target.apiUrl.replace(/\/+$/, ''),
    token: target.token,
    requesterFn,
    queryTimeout: 0,
  } as never) as unknown as {
    MergeRequestNotes: {
      all(project: string, iid: number, o: object): Promise<Note[]>;
      create(project: string, iid: number, body: string): Promise<Note>;
      edit(project: string, iid: number, noteId: number, o: { body: string }): Promise<Note>;
    };
  };
  return {
    async find() {
      const notes = await api.MergeRequestNotes.all(target.project, target.iid, { perPage: 100, maxPages: MAX_PAGES, sort: 'asc' });
      return notes.find((n) => typeof n.body === 'string' && n.body.startsWith(COMMENT_MARKER))?.id;
    },
    async update(id, body) {
      await api.MergeRequestNotes.edit(target.project, target.iid, id, { body });
    },
    async create(body) {
      return (await api.MergeRequestNotes.create(target.project, target.iid, body)).id;
    },
  };
}

/** One line naming the request and the answer; never the token. */
function failure(target: CommentTarget, transport: Transport, err: unknown): DataError {
  const f = transport.lastFailure();
  const name = target.host === 'github' ? 'GitHub' : 'GitLab';
  let message: string;
  if (f?.kind === 'status') {
    const why = /"message"\s*:\s*"([^"]{0,200})"/.exec(f.bodyExcerpt ?? '')?.[1] ?? '';
    const hint =
      f.status === 401 || f.status === 403
        ? target.host === 'github'
          ? ' (the token needs permission to write pull-request comments: permissions: pull-requests: write)'
          : ' (the token needs the api scope and at least Reporter access)'
        : f.status === 404
          ? ` (no such ${target.host === 'github' ? 'pull request' : 'merge request'}, or the token cannot see it)`
          : '';
    message = `${name} answered ${f.status} to ${f.method} ${f.url}${why ? `: ${why}` : ''}${hint}`;
  } else if (f) message = `${name}: ${f.detail ?? f.kind} (${f.method} ${f.url})`;
  else message = `${name}: ${(err as Error)?.message ?? String(err)}`;
  return new DataError(`cannot post the comment: ${message.split(target.token).join('***')}`);
}
