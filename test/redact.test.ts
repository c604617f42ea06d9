import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { recordableHeaders, redactUrl, scrubSecrets } from '../src/http/redact.js';
import { UsageError } from '../src/errors.js';
import { PROVIDERS } from '../src/providers/registry.js';
import { scaledRuns } from './helpers/arbitraries.js';
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

  it('scrubs the echoed variants: unpadded base64, base64url, any case, form- and twice URL-encoded, JSON-escaped', () => {
    const email = 'me@example.com';
    const token = 'ATATT3xFfGF0/abc+DEF?ghi~jkl';
    const pair = `${email}:${token}`;
    const b64 = Buffer.from(pair).toString('base64');
    const variants = [
      b64.replace(/=+$/, ''),
      Buffer.from(pair).toString('base64url'),
      `${Buffer.from(pair).toString('base64url')}==`.slice(0, Math.ceil(Buffer.from(pair).toString('base64url').length / 4) * 4),
      token.toLowerCase(),
      token.toUpperCase(),
      encodeURIComponent(token).toLowerCase(),
      new URLSearchParams({ t: token }).toString().slice(2),
      encodeURIComponent(encodeURIComponent(token)),
      JSON.stringify(token).slice(1, -1).replace(/\//g, '\\/'),
    ];
    for (const variant of variants) {
      const scrubbed = scrubSecrets(`echo: "${variant}".`, [token, pair]);
      assert.equal(scrubbed, `echo: "[REDACTED]".`, `${variant} -> ${scrubbed}`);
    }
  });

  it('scrubs a token inside a longer base64 text at any alignment', () => {
    const token = 'glpat-ALIGNtoken0123456789';
    for (const before of ['', 'a', 'ab', '{"private_token":"']) {
      const text = Buffer.from(`${before}${token}" and more`).toString('base64');
      const scrubbed = scrubSecrets(text, [token]);
      assert.match(scrubbed, /\[REDACTED\]/, `${JSON.stringify(before)}: ${scrubbed}`);
      for (const run of scrubbed.split('[REDACTED]'))
        assert.ok(!Buffer.from(run, 'base64').toString('latin1').includes(token.slice(3, -3)));
    }
  });

  it('property: no base64 or base64url encoding of text holding a token survives scrubbing', () => {
    const token = fc.string({ unit: 'grapheme-ascii', minLength: 12, maxLength: 40 }).filter((t) => t.trim().length >= 12);
    const around = fc.uint8Array({ maxLength: 8 });
    fc.assert(
      fc.property(token, around, around, fc.constantFrom('base64', 'base64url'), fc.boolean(), (secret, pre, post, alphabet, lower) => {
        const bytes = Buffer.concat([Buffer.from(pre), Buffer.from(secret), Buffer.from(post)]);
        const encoded = bytes.toString(alphabet as BufferEncoding);
        const text = `x ${lower ? secret.toLowerCase() : secret} y ${encoded} z`;
        const scrubbed = scrubSecrets(text, [secret]);
        for (const run of scrubbed.split('[REDACTED]')) {
          for (const piece of run.split(' ')) {
            const decoded = Buffer.from(piece, alphabet as BufferEncoding).toString('latin1');
            if (decoded.includes(secret)) return false;
          }
          if (run.toLowerCase().includes(secret.toLowerCase())) return false;
        }
        return true;
      }),
      { numRuns: scaledRuns(300) },
    );
  });

  it('a secret too short to tell from words is not scrubbed from free text, and no provider takes one as its token', () => {
    const line = 'GitHub answered 401 to GET https://api.github.com/repos/acme/widgets: Bad credentials';
    assert.equal(scrubSecrets(line, ['t']), line);
    assert.equal(scrubSecrets(line, ['acme/wi']), line);
    assert.equal(scrubSecrets(line, ['acme/wid']), line.replace('acme/wid', '[REDACTED]'));
    for (const [provider, env] of [
      ['github', { GITHUB_TOKEN: 't' }],
      ['gitlab', { GITLAB_TOKEN: 'abc' }],
      ['jira', { JIRA_HOST: 'https://example.atlassian.net', JIRA_EMAIL: 'me@example.com', JIRA_API_TOKEN: 'short' }],
      ['jira', { JIRA_HOST: 'https://jira.example.com', JIRA_PAT: '1234567' }],
    ] as const) {
      const variable = Object.keys(env).find((k) => /TOKEN|PAT/.test(k))!;
      assert.throws(
        () => PROVIDERS[provider].credentials({}, env),
        (err: Error) => err instanceof UsageError && new RegExp(`^${variable} is \\d characters? long: too short`).test(err.message),
      );
      assert.throws(() => PROVIDERS[provider].credentials({ token: 'x' }, env), { message: /^--token is 1 character long: too short/ });
    }
    assert.equal(PROVIDERS.github.credentials({}, { GITHUB_TOKEN: 'ghp_12345' }).token, 'ghp_12345');
  });

  // Issue 21 item 14: hex, HTML-entity and UTF-16 base64 echoes of a token were kept.
  const utf16be = (text: string) => Buffer.from(text, 'utf16le').swap16();
  const ECHOES: Record<string, (secret: string) => string> = {
    'hex of UTF-8': (t) => Buffer.from(t).toString('hex'),
    'HEX of UTF-8': (t) => Buffer.from(t).toString('hex').toUpperCase(),
    'hex of UTF-16LE': (t) => Buffer.from(t, 'utf16le').toString('hex'),
    'HTML decimal entities': (t) => [...t].map((c) => `&#${c.codePointAt(0)};`).join(''),
    'HTML hex entities': (t) => [...t].map((c) => `&#x${c.codePointAt(0)!.toString(16)};`).join(''),
    'HTML escaping of the special characters': (t) =>
      t.replace(
        /[&<>"'/=]/g,
        (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;', '/': '&#x2F;', '=': '&#61;' })[c]!,
      ),
    'base64 of UTF-16LE': (t) => Buffer.from(t, 'utf16le').toString('base64'),
    'base64 of UTF-16BE': (t) => utf16be(t).toString('base64'),
    'base64url of UTF-16LE, unpadded': (t) => Buffer.from(t, 'utf16le').toString('base64url'),
    'JSON \\u escapes of every character': (t) => [...t].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join(''),
    '\\x escapes of the UTF-8 bytes': (t) => [...Buffer.from(t)].map((b) => `\\x${b.toString(16).padStart(2, '0')}`).join(''),
    'every character percent-encoded': (t) => [...Buffer.from(t)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
    'a mix: half URL-encoded, half HTML entities': (t) =>
      encodeURIComponent(t.slice(0, t.length >> 1)) + [...t.slice(t.length >> 1)].map((c) => `&#${c.codePointAt(0)};`).join(''),
  };

  it('scrubs hex, HTML-entity, UTF-16 base64 and escaped echoes of a token', () => {
    for (const token of ['ghp_TESTtoken0123456789abcdefSECRET', 'ATATT3xFfGF0/abc+DEF?ghi~jkl&<x>"y\'=z', 'glpat-ünï€-token']) {
      for (const [name, echo] of Object.entries(ECHOES)) {
        const scrubbed = scrubSecrets(`echo: "${echo(token)}".`, [token]);
        assert.equal(scrubbed, 'echo: "[REDACTED]".', `${name} of ${token}: ${scrubbed}`);
      }
    }
  });

  it('property: a UTF-16 base64 encoding of text holding a token, at any alignment, does not survive scrubbing', () => {
    const token = fc.string({ unit: 'grapheme-ascii', minLength: 12, maxLength: 40 }).filter((t) => t.trim().length >= 12);
    const around = fc.string({ maxLength: 5 });
    fc.assert(
      fc.property(
        token,
        around,
        around,
        fc.uint8Array({ maxLength: 2 }),
        fc.boolean(),
        fc.constantFrom('base64', 'base64url'),
        (secret, pre, post, lead, bigEndian, alphabet) => {
          const bytes = (text: string) => (bigEndian ? utf16be(text) : Buffer.from(text, 'utf16le'));
          const text = `x ${Buffer.concat([Buffer.from(lead), bytes(`${pre}${secret}${post}`)]).toString(alphabet as BufferEncoding)} z`;
          const scrubbed = scrubSecrets(text, [secret]);
          for (const run of scrubbed.split('[REDACTED]'))
            for (const piece of run.split(' ')) {
              const raw = Buffer.from(piece, alphabet as BufferEncoding);
              for (const skip of [0, 1]) {
                const body = raw.subarray(skip, skip + ((raw.length - skip) & ~1));
                const decoded = (bigEndian ? Buffer.from(body).swap16() : body).toString('utf16le');
                if (decoded.includes(secret)) return false;
              }
            }
          return true;
        },
      ),
      { numRuns: scaledRuns(300) },
    );
  });

  it('leaves text without the secret unchanged', () => {
    const text = 'nothing to see: aGVsbG8gd29ybGQ= hello%20world';
    assert.equal(scrubSecrets(text, ['ghp_NOTpresent0123456789']), text);
  });
});
