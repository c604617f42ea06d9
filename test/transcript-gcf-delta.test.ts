import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { transcriptFromExchanges, transcriptFromOutputs } from '../src/transcript/build.js';
import { playTranscript } from '../src/transcript/playback.js';
import { corpusExchanges } from './helpers/corpus-bodies.js';

// Real re-queries: the same URL recorded twice, at different times, with different answers.
const REQUERIES = [
  'github/octokit__octokit.rb/006_GET_repos_octokit_octokit_rb_labels.json',
  'github/octokit__octokit.rb/007_GET_repos_octokit_octokit_rb_labels.json',
  'gitlab/gitlab-org__group/000_GET_api_v4_groups_gitlab_org_milestones.json',
  'gitlab/gitlab-org__group/001_GET_api_v4_groups_gitlab_org_milestones.json',
  'gitlab/gitlab-org__gitlab-foss/035_GET_api_v4_projects_gitlab_org_2Fgitlab_foss_pipelines_per_page_50_ref_master.json',
  'gitlab/gitlab-org__gitlab-foss/036_GET_api_v4_projects_gitlab_org_2Fgitlab_foss_pipelines_per_page_50_ref_master.json',
];

const labels = (names: string[]) => names.map((name, i) => ({ id: 100 + name.length * 7 + i, name, color: 'ededed', default: false }));

describe('GCF generic delta, side by side with L0 dedup', () => {
  it('on real re-queries of flat tables: a full anchor, then smaller deltas the reference decoder turns back into each output', async () => {
    const all = await corpusExchanges();
    const exchanges = REQUERIES.map((f) => all.find((e) => e.file === f)!);
    const entries = transcriptFromExchanges(exchanges);
    const report = await playTranscript(entries, { format: 'gcf', tokenizer: 'o200k_base', gcfDelta: true });
    const d = report.gcf_delta!;
    assert.deepEqual(
      d.per_call.map((c) => c.sent),
      ['full', 'delta', 'full', 'delta', 'full', 'delta'],
    );
    // Labels and milestones changed a little: the delta is far smaller than the table sent again.
    for (const i of [1, 3])
      assert.ok(d.per_call[i]!.tokens * 3 < report.per_call[i]!.tokens, `delta ${i} should be much smaller than the table`);
    // The pipeline list went from 50 rows to 5: listing 45 removals costs more than the 5 new rows.
    assert.ok(d.per_call[5]!.tokens > report.per_call[5]!.tokens);
    assert.equal(d.wire_calls, 6);
    assert.equal(d.different, 0);
    assert.equal(
      d.received_tokens,
      d.per_call.reduce((n, c) => n + c.tokens, 0),
    );
    assert.ok(Math.abs(d.savings_pct - (1 - d.received_tokens / report.baseline_tokens)) < 1e-12);
    assert.equal(report.hits, 0, 'no output repeats exactly, so L0 dedup finds nothing here');
  });

  it('deltas are sets: a row added at the front comes back at the end', async () => {
    const before = labels(Array.from({ length: 30 }, (_, i) => `area-${i}`));
    const after = [...labels(['security']), ...before];
    const report = await playTranscript(
      transcriptFromOutputs([
        { tool: 'list_labels', output: before },
        { tool: 'list_labels', output: after },
      ]),
      { format: 'gcf', tokenizer: 'o200k_base', gcfDelta: true },
    );
    assert.deepEqual(
      report.gcf_delta!.per_call.map((c) => c.sent),
      ['full', 'delta'],
    );
    assert.deepEqual(
      report.gcf_delta!.per_call.map((c) => c.rebuilt),
      ['same-list', 'same-set-other-order'],
    );
    assert.equal(report.gcf_delta!.same_set_only, 1);
  });

  it('an exact repeat costs an empty delta (two pack roots) where L0 dedup sends a one-line ref', async () => {
    const table = labels([
      'bug',
      'docs',
      'feature',
      'question',
      'wontfix',
      'duplicate',
      'enhancement',
      'help wanted',
      'good first issue',
      'invalid',
    ]);
    const report = await playTranscript(
      transcriptFromOutputs([
        { tool: 'list_labels', output: table },
        { tool: 'list_labels', output: table },
      ]),
      { format: 'gcf', tokenizer: 'o200k_base', gcfDelta: true },
    );
    assert.equal(report.per_call[1]!.hit, true);
    assert.equal(report.gcf_delta!.per_call[1]!.sent, 'delta');
    assert.ok(report.gcf_delta!.per_call[1]!.tokens > report.per_call[1]!.tokens);
  });

  it('only keyed flat tables take part; everything else is charged what L0 + encoder sent', async () => {
    const entries = transcriptFromOutputs([
      {
        tool: 'issue',
        output: [
          { id: 1, user: { login: 'a' } },
          { id: 2, user: { login: 'b' } },
        ],
      },
      { tool: 'mixed', output: [{ id: 1 }, { id: 2, extra: true }] },
      { tool: 'dupes', output: [{ state: 'open' }, { state: 'open' }] },
      { tool: 'read', output: 'plain text' },
      { tool: 'fail', output: [{ id: 1 }], isError: true },
      { tool: 'one', output: { id: 1 } },
    ]);
    const report = await playTranscript(entries, { format: 'toon', tokenizer: 'o200k_base', gcfDelta: true });
    const d = report.gcf_delta!;
    assert.deepEqual(
      d.per_call.map((c) => c.skipped),
      ['nested-values', 'keys-differ', 'no-unique-key', 'string-output', 'error', 'not-a-table'],
    );
    assert.deepEqual(
      d.per_call.map((c) => c.tokens),
      report.per_call.map((c) => c.tokens),
    );
    assert.equal(d.received_tokens, report.received_tokens);
  });
});
