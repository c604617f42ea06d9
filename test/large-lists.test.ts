import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import type { ProviderName } from '../src/model/index.js';
import { startHostile, type Behaviour } from './helpers/hostile-server.js';
import { firstDatasetSizeOnSmallStack, stopSmallStack } from './helpers/small-stack.js';

/**
 * A page of more items than a call can take as arguments (a server that ignores per_page, or a proxy
 * that merges pages) is read whole: collecting items must not spread them into one call's arguments.
 * The load runs on a small stack (helpers/small-stack.ts), where 50,000 arguments overflow as 200,000
 * do on the main thread's; each test checks that they do.
 */

const COUNT = 50_000;
after(stopSmallStack);

function answer(body: string, headers: Record<string, string> = {}): Behaviour {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers });
    res.end(body);
  };
}

function list(item: (i: number) => string): string {
  const parts: string[] = [];
  for (let i = 1; i <= COUNT; i++) parts.push(item(i));
  return `[${parts.join(',')}]`;
}

async function firstDatasetSize(provider: ProviderName, behaviour: Behaviour, env: Record<string, string> = {}): Promise<number> {
  const server = await startHostile(behaviour);
  try {
    const where = provider === 'jira' ? { project: 'BIG' } : { owner: 'acme', repo: 'big' };
    const load = await firstDatasetSizeOnSmallStack(
      { provider, ...where, host: server.url, env, limit: 5, details: 0, http: { maxRetries: 0 } },
      COUNT,
    );
    assert.ok(load.spreadOverflows, `${COUNT} items as one call's arguments fit on the worker's stack: too few to show anything`);
    if (load.error) {
      assert.ok(load.error.dataError, `a failure must be a DataError naming the request, got ${load.error.message}`);
      assert.fail(load.error.message);
    }
    return load.size!;
  } finally {
    await server.close();
  }
}

describe('a page of more items than a call can take as arguments', () => {
  it('GitHub issues', async () => {
    const body = list((i) => `{"number":${i},"title":"t${i}","state":"open"}`);
    assert.equal(await firstDatasetSize('github', (req, res) => answer(req.url.includes('/issues') ? body : '[]')(req, res, '')), COUNT);
  });

  it('GitLab issues', async () => {
    const body = list((i) => `{"iid":${i},"title":"t${i}","state":"opened"}`);
    assert.equal(await firstDatasetSize('gitlab', (req, res) => answer(req.url.includes('/issues') ? body : '[]')(req, res, '')), COUNT);
  });

  it('Jira v2 search (startAt pages)', async () => {
    const issues = list((i) => `{"key":"BIG-${i}","fields":{"summary":"t${i}"}}`);
    const body = `{"startAt":0,"maxResults":${COUNT},"total":${COUNT},"issues":${issues}}`;
    assert.equal(await firstDatasetSize('jira', answer(body)), COUNT);
  });

  it('Jira v3 enhanced search (token pages)', async () => {
    const issues = list((i) => `{"key":"BIG-${i}","fields":{"summary":"t${i}"}}`);
    const body = `{"isLast":true,"issues":${issues}}`;
    assert.equal(await firstDatasetSize('jira', answer(body), { JIRA_API_VERSION: '3' }), COUNT);
  });
});
