import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { loadPipelineConfig, parseStrategies } from '../src/budget/strategies/config.js';
import { BUILTIN_STRATEGIES, resolveStrategy } from '../src/budget/strategies/resolver.js';
import { UsageError } from '../src/errors.js';
import { DATASET_KINDS } from '../src/model/index.js';
import { rejection } from './helpers/recordings.js';

describe('strategy resolver', () => {
  it('maps the built-in tool and dataset names (seed 000 table)', () => {
    assert.deepEqual(resolveStrategy('get_issues'), { strategy: 'element_count', by: 'builtin', name: 'get_issues' });
    assert.equal(resolveStrategy('get_issue_comments').strategy, 'cascading');
    assert.equal(resolveStrategy('get_merge_request_diffs').strategy, 'size_proportional');
    assert.equal(resolveStrategy('get_merge_request_discussions').strategy, 'thread_level');
    assert.equal(resolveStrategy('get_job_logs').strategy, 'head_tail');
    assert.equal(resolveStrategy('get_users').strategy, 'default');
    for (const kind of DATASET_KINDS) assert.ok(kind in BUILTIN_STRATEGIES);
  });

  it('config overrides win over the built-in table', () => {
    assert.deepEqual(resolveStrategy('get_issues', { get_issues: 'default' }), { strategy: 'default', by: 'config', name: 'get_issues' });
  });

  it('strips a proxy prefix and retries config, then the built-in table', () => {
    assert.deepEqual(resolveStrategy('cloud__get_merge_request_diffs'), {
      strategy: 'size_proportional',
      by: 'builtin after prefix',
      name: 'get_merge_request_diffs',
    });
    assert.deepEqual(resolveStrategy('cloud__get_issues', { get_issues: 'head_tail' }), {
      strategy: 'head_tail',
      by: 'config after prefix',
      name: 'get_issues',
    });
    assert.equal(resolveStrategy('a__b__get_issue_comments').strategy, 'cascading');
    // The exact name in the config wins over the stripped one.
    assert.equal(resolveStrategy('cloud__get_issues', { cloud__get_issues: 'default' }).strategy, 'default');
  });

  it('falls back to default for names it does not know', () => {
    assert.deepEqual(resolveStrategy('list_deployments'), { strategy: 'default', by: 'fallback', name: 'list_deployments' });
    assert.equal(resolveStrategy('cloud__list_deployments').by, 'fallback');
  });
});

describe('devboy.toml [format_pipeline.strategies]', () => {
  it('reads the table and leaves the rest of the file alone', async () => {
    const text = '[server]\nport = 8080\n\n[format_pipeline.strategies]\nget_issues = "cascading"\n"cloud__get_pipeline" = "head_tail"\n';
    assert.deepEqual(await parseStrategies(text, 'devboy.toml'), { get_issues: 'cascading', cloud__get_pipeline: 'head_tail' });
    assert.deepEqual(await parseStrategies('[other]\na = 1\n', 'devboy.toml'), {});
  });

  it('malformed TOML is a usage error naming file:line:col', async () => {
    const err = await rejection(parseStrategies('[format_pipeline.strategies]\nget_issues = "cascading\n', 'devboy.toml'));
    assert.ok(err instanceof UsageError);
    assert.equal(err.location.file, 'devboy.toml');
    assert.equal(err.location.line, 2);
    assert.ok(err.location.col !== undefined);
    assert.doesNotMatch(err.oneLine(), /\n/);
  });

  it('an unknown strategy names the line it is on', async () => {
    const err = await rejection(parseStrategies('[format_pipeline.strategies]\n\n  get_issues = "smart"\n', 'devboy.toml'));
    assert.match(err.oneLine(), /^devboy\.toml:3:3: unknown strategy "smart" for "get_issues" \(expected one of: element_count, /);
  });

  it('is looked up in the working directory, or given with --config (which must exist)', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'devboy-config-'));
    try {
      assert.deepEqual(await loadPipelineConfig(undefined, dir), { strategies: {} });
      await writeFile(join(dir, 'devboy.toml'), '[format_pipeline.strategies]\ndiffs = "default"\n');
      assert.deepEqual((await loadPipelineConfig(undefined, dir)).strategies, { diffs: 'default' });
      const missing = await rejection(loadPipelineConfig(join(dir, 'nope.toml')));
      assert.ok(missing instanceof UsageError && /no such config file/.test(missing.message));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
