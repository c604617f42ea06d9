import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { DataError, DevboyError, UsageError } from '../src/errors.js';
import type { HttpOptions } from '../src/http/transport.js';
import { resolveCredentials } from '../src/providers/client.js';
import { loadLiveDatasets } from '../src/providers/load.js';
import type { ProviderName } from '../src/model/index.js';
import type { ProgressEvent } from '../src/providers/types.js';
import {
  credentialsIn,
  json,
  redirectLoop,
  redirectTo,
  startHostile,
  within,
  type Behaviour,
  type HostileServer,
} from './helpers/hostile-server.js';
import { display, LIVE_TARGETS, NETWORK_PROVIDERS } from './helpers/live-targets.js';
import { instantSleep } from './helpers/recordings.js';

/**
 * Credentials go to the configured API origin and nowhere else: not to a next-page link on another
 * host, not through a redirect to one. Redirects are followed hop by hop, a bounded number of times.
 */

const TOKENS = Object.fromEntries(NETWORK_PROVIDERS.map((p) => [p, LIVE_TARGETS[p].token])) as Record<ProviderName, string>;
const PROVIDERS = NETWORK_PROVIDERS;

function load(provider: ProviderName, host: string, http: HttpOptions = {}, onProgress?: (e: ProgressEvent) => void): Promise<unknown> {
  const where = LIVE_TARGETS[provider].where;
  return loadLiveDatasets({
    provider,
    ...where,
    host,
    token: TOKENS[provider],
    env: {},
    limit: 5,
    details: 0,
    http: { sleep: instantSleep().sleep, timeoutMs: 5000, ...http },
    ...(onProgress ? { onProgress } : {}),
  });
}

async function rejected(promise: Promise<unknown>): Promise<DevboyError> {
  const err = await within(
    10_000,
    'the run',
    promise.then(
      () => assert.fail('expected a failure'),
      (e: unknown) => e,
    ),
  );
  assert.ok(err instanceof DevboyError, `a DevboyError, got ${String(err)}`);
  assert.doesNotMatch(err.oneLine(), /\n/);
  for (const token of Object.values(TOKENS)) assert.ok(!err.message.includes(token), err.message);
  return err;
}

async function servers<T>(
  main: (other: HostileServer) => Behaviour,
  otherBehaviour: Behaviour,
  work: (main: HostileServer, other: HostileServer) => Promise<T>,
) {
  const other = await startHostile(otherBehaviour);
  const first = await startHostile(main(other));
  try {
    return await work(first, other);
  } finally {
    await first.close();
    await other.close();
  }
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('a next-page link to another origin', () => {
  it('GitHub: refused with one line naming the link; the other server receives nothing', async () => {
    const issue = { number: 1, title: 'one', state: 'open' };
    await servers(
      (other) => (req, res) =>
        json(200, [issue], { link: `<${other.url}/repos/acme/widgets/issues?state=all&per_page=5&page=2>; rel="next"` })(req, res, ''),
      json(200, []),
      async (main, other) => {
        const err = await rejected(load('github', main.url));
        assert.ok(err instanceof DataError);
        assert.match(
          err.message,
          new RegExp(
            `^GitHub: refused GET ${escape(other.url)}/repos/acme/widgets/issues\\?state=all&per_page=5&page=2: not the configured API origin ${escape(main.url)} \\(devboy sends requests and credentials nowhere else\\)$`,
          ),
        );
        assert.deepEqual(credentialsIn(other.received), []);
        assert.equal(other.received.length, 0);
        assert.equal(main.received[0]!.headers.authorization, `token ${TOKENS.github}`);
      },
    );
  });
});

describe('a redirect to another origin', () => {
  for (const provider of PROVIDERS) {
    for (const status of [301, 302, 307, 308]) {
      it(`${provider}, ${status}: refused, and the other server never sees the credentials`, async () => {
        await servers(
          (other) => redirectTo(() => other.url, status),
          json(200, []),
          async (main, other) => {
            const err = await rejected(load(provider, main.url));
            assert.ok(err instanceof DataError);
            assert.match(
              err.message,
              new RegExp(
                `^${display(provider)}: refused the redirect of GET ${escape(main.url)}/\\S+ to ${escape(other.url)}/\\S+: not the configured API origin ${escape(main.url)} \\(devboy sends requests and credentials nowhere else\\)$`,
              ),
            );
            assert.deepEqual(credentialsIn(other.received), []);
            assert.equal(other.received.length, 0);
            assert.equal(main.received.length, 1, 'not retried');
            assert.ok(credentialsIn(main.received).length > 0, 'the configured origin did get the credentials');
          },
        );
      });
    }
  }

  it('another name for the same address is another origin', async () => {
    await servers(
      (other) => redirectTo(() => other.url.replace('127.0.0.1', 'localhost')),
      json(200, []),
      async (main, other) => {
        const err = await rejected(load('gitlab', main.url));
        assert.match(err.message, /^GitLab: refused the redirect of GET .* to http:\/\/localhost:\d+\/.*: not the configured API origin/);
        assert.deepEqual(credentialsIn(other.received), []);
      },
    );
  });
});

describe('redirects within the configured origin', () => {
  it('are followed hop by hop, with the credentials, like a renamed GitHub repository', async () => {
    const issue = { number: 7, title: 'moved', state: 'open' };
    const server = await startHostile((req, res) => {
      if (req.url.startsWith('/repos/acme/widgets/')) {
        res.writeHead(301, { location: req.url.replace('/repos/acme/widgets/', '/repositories/42/') });
        res.end();
      } else if (req.url.startsWith('/repositories/42/issues')) json(200, [issue])(req, res, '');
      else json(200, [])(req, res, '');
    });
    try {
      const datasets = (await load('github', server.url)) as { result: { items: { key: string }[] } }[];
      assert.deepEqual(
        datasets.map((d) => d.result.items.map((i) => i.key)),
        [['gh#7']],
      );
      const moved = server.received.filter((r) => r.url.startsWith('/repositories/42/'));
      assert.equal(moved.length, 2, 'issues and pulls both followed their redirect');
      for (const r of moved) assert.equal(r.headers.authorization, `token ${TOKENS.github}`);
    } finally {
      await server.close();
    }
  });
});

describe('a redirect loop', () => {
  for (const provider of PROVIDERS) {
    it(`${provider}: a bounded number of hops, not retried, reported as a loop naming the URL`, async () => {
      const server = await startHostile(redirectLoop);
      try {
        const events: ProgressEvent[] = [];
        const err = await rejected(load(provider, server.url, { maxRetries: 3 }, (e) => events.push(e)));
        assert.ok(err instanceof DataError);
        assert.match(
          err.message,
          new RegExp(
            `^${display(provider)}: refused GET ${escape(server.url)}/\\S+: a redirect loop \\(redirected back to ${escape(server.url)}/\\S+ after \\d+ hops?\\)$`,
          ),
        );
        assert.ok(server.received.length <= 6, `${server.received.length} requests`);
        assert.deepEqual(
          events.filter((e) => e.type === 'retry'),
          [],
        );
      } finally {
        await server.close();
      }
    });
  }

  it('a chain longer than the hop limit is refused too', async () => {
    let n = 0;
    const server = await startHostile((_req, res) => {
      res.writeHead(302, { location: `/hop/${++n}` });
      res.end();
    });
    try {
      const err = await rejected(load('gitlab', server.url, { maxRetries: 3 }));
      assert.match(err.message, /^GitLab: refused GET \S+: more than 5 redirects \(the last to http:\/\/127\.0\.0\.1:\d+\/hop\/\d+\)$/);
      assert.equal(server.received.length, 6);
    } finally {
      await server.close();
    }
  });
});

describe('a malformed host is a usage error, before any request', () => {
  const malformed: [string, RegExp][] = [
    ['http//example.com', /^--host: not a URL: http\/\/example\.com \(expected https:\/\/HOST\[:PORT\]\[\/PATH\]\)$/],
    ['https:/example.com', /^--host: not a URL: https:\/example\.com/],
    ['ftp://example.com', /^--host: ftp:\/\/example\.com: only http:\/\/ and https:\/\/ are supported$/],
    ['https://bad_host!', /^--host: https:\/\/bad_host!: "bad_host!" is not a host name$/],
    ['https://example..com', /^--host: https:\/\/example\.\.com: "example\.\.com" is not a host name$/],
    ['https://-example.com', /is not a host name$/],
    ['https://exa mple.com', /^--host: not a URL: https:\/\/exa mple\.com/],
    ['https://user:secret@example.com', /^--host: must not hold credentials: set the token variable or --token instead$/],
    ['https://example.com/api?x=1', /^--host: https:\/\/example\.com\/api\?x=1: no query or fragment allowed$/],
  ];
  for (const [host, message] of malformed) {
    it(`${host}`, async () => {
      const err = await rejected(load('github', host));
      assert.ok(err instanceof UsageError, `a UsageError, got ${err.name}: ${err.message}`);
      assert.equal(err.exitCode, 2);
      assert.match(err.message, message);
      assert.ok(!err.message.includes('secret'));
    });
  }

  it('names the variable when the host came from the environment', () => {
    assert.throws(
      () => resolveCredentials('gitlab', { env: { GITLAB_HOST: 'https://bad_host!' } }),
      (e: unknown) => e instanceof UsageError && /^GITLAB_HOST: https:\/\/bad_host!: "bad_host!" is not a host name$/.test(e.message),
    );
  });

  it('accepts the hosts people do use', () => {
    const ok: [string, string][] = [
      ['gitlab.example.com', 'https://gitlab.example.com'],
      ['https://example.com:8443/gitlab/', 'https://example.com:8443/gitlab'],
      ['http://127.0.0.1:8080', 'http://127.0.0.1:8080'],
      ['https://[::1]:8080', 'https://[::1]:8080'],
      ['localhost:8080', 'https://localhost:8080'],
      ['https://ghe.example.com/api/v3', 'https://ghe.example.com/api/v3'],
      ['https://bücher.example', 'https://xn--bcher-kva.example'],
      ['intranet-gitlab', 'https://intranet-gitlab'],
    ];
    for (const [host, apiUrl] of ok) assert.equal(resolveCredentials('gitlab', { host, env: {} }).apiUrl, apiUrl, host);
  });
});
