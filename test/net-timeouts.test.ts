import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { DataError, DevboyError } from '../src/errors.js';
import type { HttpOptions } from '../src/http/transport.js';
import { loadLiveDatasets } from '../src/providers/load.js';
import { openClient as openSession } from '../src/providers/client.js';
import type { ProviderName } from '../src/model/index.js';
import type { EndpointCall } from '../src/providers/types.js';
import {
  bigBody,
  endless,
  json,
  silent,
  startHostile,
  trickle,
  underGcPressure,
  underGcPressureTimed,
  within,
  type Behaviour,
} from './helpers/hostile-server.js';
import { display, LIVE_TARGETS, NETWORK_PROVIDERS } from './helpers/live-targets.js';
import { instantSleep } from './helpers/recordings.js';

/**
 * Every request devboy makes is bounded in time (connect, headers, whole body) and in size, for
 * the real clients, while garbage collections run as they do in a long run.
 */

const TOKENS = Object.fromEntries(NETWORK_PROVIDERS.map((p) => [p, LIVE_TARGETS[p].token])) as Record<ProviderName, string>;
const PROVIDERS = NETWORK_PROVIDERS;

// The bounds are about the network: load the client libraries, and Node's own fetch (loaded on its
// first call), before any clock starts.
before(async () => {
  await Promise.all([import('@octokit/rest'), import('@gitbeaker/rest'), import('jira.js'), fetch('data:,warm')]);
});

/**
 * How often a full collection runs while requests wait. What it guards against is Node 20's fetch
 * losing the abort signal of a Request that was collected: one collection while an attempt waits
 * is enough to lose it (checked against a fetch given `new Request(url, { signal:
 * AbortSignal.timeout(200) })`, which hangs with collections every 100 or 250 ms and ends without
 * them). The shortest attempt here waits 200 ms; a full collection costs about 30 ms of CPU, so
 * collecting more often only costs time.
 */
const GC_EVERY_MS = 100;

function load(provider: ProviderName, host: string, http: HttpOptions): Promise<unknown> {
  const where = LIVE_TARGETS[provider].where;
  return loadLiveDatasets({ provider, ...where, host, token: TOKENS[provider], env: {}, limit: 5, details: 0, http });
}

/** The error a run ends with, and how long it took; the run must end within `boundMs`. */
async function failure(provider: ProviderName, host: string, http: HttpOptions, boundMs: number) {
  const started = performance.now();
  const err = await within(
    boundMs,
    `${provider} against ${host}`,
    load(provider, host, http).then(
      () => assert.fail('expected a failure'),
      (e: unknown) => e,
    ),
  );
  const elapsed = performance.now() - started;
  assert.ok(err instanceof DataError, `a DataError, got ${String(err)}`);
  assert.doesNotMatch(err.oneLine(), /\n/);
  for (const token of Object.values(TOKENS)) assert.ok(!err.message.includes(token));
  return { err, elapsed };
}

async function withServer<T>(behaviour: Behaviour, work: (url: string, received: () => number) => Promise<T>): Promise<T> {
  const server = await startHostile(behaviour);
  try {
    return await work(server.url, () => server.received.length);
  } finally {
    await server.close();
  }
}

/**
 * What the same run costs when the server answers at once (a 404, not retried), measured now, under
 * the same collections and less the time they took: the client's own work, which grows with the
 * machine's load. A bound of "timeouts + this" tells a hang (never ends) from a busy machine (ends
 * late), where a fixed slack failed whenever another process kept the cores busy.
 */
async function answeredAtOnce(provider: ProviderName): Promise<number> {
  return withServer(json(404, { message: 'Not Found' }), async (url) => {
    const { value, collectingMs } = await underGcPressureTimed(() => failure(provider, url, { maxRetries: 0 }, 60_000), GC_EVERY_MS);
    return value.elapsed - collectingMs;
  });
}

describe('a server that never answers', () => {
  for (const provider of PROVIDERS) {
    it(`${provider}: each attempt times out, and the run ends within attempts × timeout + waits`, async () => {
      const control = await answeredAtOnce(provider);
      await withServer(silent, async (url, received) => {
        // Real waits this time: the bound the docs promise includes them.
        const http = { timeoutMs: 200, maxRetries: 2, backoffBaseMs: 50 };
        const bound = 3 * 200 + 50 + 100;
        const slack = 500 + 2 * control;
        const { value, collectingMs } = await underGcPressureTimed(() => failure(provider, url, http, 10 * (bound + slack)), GC_EVERY_MS);
        const { err } = value;
        // The collections this test forces are not the client's time (the control's leave them out too).
        const elapsed = value.elapsed - collectingMs;
        assert.match(
          err.message,
          new RegExp(`^${display(provider)} did not answer GET http://127\\.0\\.0\\.1:\\d+/\\S+ within 200 ms \\(3 attempts\\)$`),
        );
        // The attempts are the client's (its message counts them); a busy machine can let an attempt time
        // out before this process's own server has read it.
        assert.ok(received() >= 1 && received() <= 3, `${received()} requests received`);
        assert.ok(
          elapsed < bound + slack,
          `ended after ${Math.round(elapsed)} ms besides ${Math.round(collectingMs)} ms of collections; the promise is ${bound} ms, and the run answered at once took ${Math.round(control)} ms`,
        );
      });
    });
  }
});

describe('a body that trickles after the headers', () => {
  for (const provider of PROVIDERS) {
    it(`${provider}: the timeout covers the whole body`, async () => {
      const control = await answeredAtOnce(provider);
      await withServer(trickle(20), async (url, received) => {
        // The cap only tells a hang from a busy machine: ten times the promise and the control.
        const cap = 10 * (2 * 300 + 500 + 2 * control);
        const { err } = await underGcPressure(
          () => failure(provider, url, { timeoutMs: 300, maxRetries: 1, sleep: instantSleep().sleep }, cap),
          GC_EVERY_MS,
        );
        assert.match(
          err.message,
          new RegExp(`^${display(provider)} did not answer GET http://127\\.0\\.0\\.1:\\d+/\\S+ within 300 ms \\(2 attempts\\)$`),
        );
        // As above: on a busy machine an attempt can time out before this process's server has read it.
        assert.ok(received() >= 1 && received() <= 2, `${received()} requests received`);
      });
    });
  }
});

describe('a body larger than the cap', () => {
  for (const provider of PROVIDERS) {
    it(`${provider}: an endless body stops at the cap, with one error naming the request, not retried`, async () => {
      await withServer(endless, async (url, received) => {
        const http = { timeoutMs: 20_000, maxRetries: 3, maxBodyBytes: 1024 * 1024, sleep: instantSleep().sleep };
        const { err } = await failure(provider, url, http, 8000);
        assert.match(
          err.message,
          new RegExp(
            `^${display(provider)} answered GET http://127\\.0\\.0\\.1:\\d+/\\S+ with a body over the 1 MiB limit \\(DEVBOY_MAX_BODY_MB raises it\\)$`,
          ),
        );
        assert.equal(received(), 1);
      });
    });
  }

  it('a Content-Length over the cap is refused before the body is read', async () => {
    await withServer(bigBody(3 * 1024 * 1024), async (url) => {
      const { err } = await failure('github', url, { maxBodyBytes: 2 * 1024 * 1024, maxRetries: 0 }, 8000);
      assert.match(
        err.message,
        /^GitHub answered GET http:\/\/127\.0\.0\.1:\d+\/repos\/acme\/widgets\/issues\S* with a body over the 2 MiB limit/,
      );
    });
  });

  it('a body under the cap is read as usual', async () => {
    await withServer(bigBody(512 * 1024), async (url) => {
      // An empty JSON array padded with spaces: valid, so the run gets past the first list.
      const datasets = await load('github', url, { maxBodyBytes: 1024 * 1024, maxRetries: 0 });
      assert.deepEqual(datasets, []);
    });
  });

  it('the cap is 64 MiB unless DEVBOY_MAX_BODY_MB says otherwise', async () => {
    const { createTransport } = await import('../src/http/transport.js');
    assert.equal(createTransport('http://127.0.0.1:1').maxBodyBytes, 64 * 1024 * 1024);
    const saved = process.env['DEVBOY_MAX_BODY_MB'];
    try {
      process.env['DEVBOY_MAX_BODY_MB'] = '3';
      assert.equal(createTransport('http://127.0.0.1:1').maxBodyBytes, 3 * 1024 * 1024);
      process.env['DEVBOY_MAX_BODY_MB'] = 'lots';
      assert.throws(
        () => createTransport('http://127.0.0.1:1'),
        (e: unknown) =>
          e instanceof DevboyError &&
          e.exitCode === 2 &&
          /^DEVBOY_MAX_BODY_MB must be a whole number of MiB of at least 1, got "lots"$/.test(e.message),
      );
    } finally {
      if (saved === undefined) delete process.env['DEVBOY_MAX_BODY_MB'];
      else process.env['DEVBOY_MAX_BODY_MB'] = saved;
    }
  });
});

/**
 * How many requests the hang probe runs at once: each provider's client many times over, which is
 * what it is about (one request alone is the tests above); the clients' own work per request, not the
 * waiting, is what the probe costs.
 */
const CONCURRENT = 50;

describe('hang probe', () => {
  it(`${CONCURRENT} concurrent requests through the real clients against a silent server, under GC pressure, all end within their bound`, async () => {
    await withServer(silent, async (url, received) => {
      const http = { timeoutMs: 400, maxRetries: 1, sleep: instantSleep().sleep };
      const paging = { maxPages: 1, maxItems: 5, canFetch: () => true };
      const calls = Object.fromEntries(PROVIDERS.map((p) => [p, LIVE_TARGETS[p].issues])) as Record<ProviderName, EndpointCall>;
      // The control: the same requests answered at once (a 404, not retried), under the same collections.
      const control = await withServer(json(404, { message: 'Not Found' }), async (okUrl) => {
        const quick = await Promise.all(
          PROVIDERS.map(async (provider) => ({
            provider,
            session: await openSession(provider, { apiUrl: okUrl, token: TOKENS[provider], http }),
          })),
        );
        const request = (i: number) => {
          const { provider, session } = quick[i % quick.length]!;
          return session.run(calls[provider], paging).catch(() => undefined);
        };
        await Promise.all(quick.map((_, i) => request(i)));
        const started = performance.now();
        await underGcPressure(() => Promise.all(Array.from({ length: CONCURRENT }, (_, i) => request(i))), 200);
        return performance.now() - started;
      });
      const bound = 2 * 400 + 1000 + 2 * control;
      // One session per provider, opened before the clock starts. A Gitbeaker client is large enough
      // that 100 of them would make each forced collection take a third of a second; and collections
      // every 200 ms still leave the clients time to send their requests.
      const sessions = await Promise.all(
        PROVIDERS.map(async (provider) => ({
          provider,
          session: await openSession(provider, { apiUrl: url, token: TOKENS[provider], http }),
        })),
      );
      // A client's first request does one-time work (Octokit and axios set themselves up): done here too.
      await Promise.all(sessions.map(({ provider, session }) => session.run(calls[provider], paging).catch(() => undefined)));
      const warmUp = received();
      const runs = await underGcPressure(
        () =>
          Promise.all(
            Array.from({ length: CONCURRENT }, async (_, i) => {
              const { provider, session } = sessions[i % sessions.length]!;
              const started = performance.now();
              const err = await within(10 * bound, `${provider} request`, session.run(calls[provider], paging)).then(
                () => assert.fail('expected a timeout'),
                (e: unknown) => e,
              );
              return { provider, err, elapsed: performance.now() - started };
            }),
          ),
        200,
      );
      assert.equal(runs.length, CONCURRENT);
      for (const { provider, err } of runs) {
        assert.ok(err instanceof DataError, String(err));
        assert.match(err.message, new RegExp(`^${display(provider)} did not answer GET .* within 400 ms \\(2 attempts\\)$`));
      }
      // Under load a request can time out before this process's own server has read it: at most, not exactly.
      assert.ok(received() - warmUp <= 2 * CONCURRENT, `${received() - warmUp} requests received`);
      // Two attempts of 400 ms, plus what the same requests cost answered at once, measured above.
      const slowest = Math.max(...runs.map((r) => r.elapsed));
      assert.ok(slowest < bound, `slowest request took ${Math.round(slowest)} ms; answered at once they took ${Math.round(control)} ms`);
    });
  });
});
