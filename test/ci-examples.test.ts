import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { describe, it } from 'node:test';
import { PROVIDER_NAMES } from '../src/providers/registry.js';
import { REPO_ROOT } from './helpers/paths.js';

// .ci/run runs the CI examples' own devboy commands on every change, so the examples cannot rot:
// every `$DEVBOY ...` command of either example must be one .ci/run runs, and .ci/run's gate may
// run no other. A command is compared up to its redirections and shell connectives (`>`, `|`, `;`,
// `&&`), where CI systems differ (a job summary file, an artifact).

const read = (...p: string[]) => readFileSync(join(REPO_ROOT, ...p), 'utf8');

function devboyCommands(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(/\$DEVBOY [^\n]*/g)) out.add(m[0].split(/\s*(?:>|\||;|&&)/)[0]!.trim());
  return out;
}

const EXAMPLES = ['examples/github-actions/devboy-benchmark.yml', 'examples/gitlab-ci/devboy.gitlab-ci.yml'];

describe('CI examples and .ci/run', () => {
  const ci = devboyCommands(read('.ci', 'run'));

  it('.ci/run benchmarks, merges and compares with the committed baseline', () => {
    assert.deepEqual(
      [...ci].map((c) => c.split(' ')[1]),
      ['benchmark', 'merge', 'compare'],
    );
    assert.match(read('.ci', 'run'), /DEVBOY_BASELINE=results\/baseline\.json/);
  });

  for (const file of EXAMPLES) {
    it(`${file}: every devboy command is one .ci/run runs, and it runs no other`, () => {
      const text = read(file);
      const commands = devboyCommands(text);
      assert.ok(commands.size >= 3, file);
      for (const c of commands) assert.ok(ci.has(c), `${file}: '${c}' is not run by .ci/run`);
      for (const c of ci) assert.ok(commands.has(c), `.ci/run runs '${c}', which ${file} does not`);
      assert.match(text, /DEVBOY_BASELINE: results\/baseline\.json/);
      assert.match(text, /DEVBOY_CORPUS: corpus/);
    });
  }

  it('the shards are the providers of the provider registry, in .ci/run and both examples', () => {
    const lists = {
      '.ci/run': /for SHARD in ([^;\n]+);/.exec(read('.ci', 'run'))?.[1]?.trim().split(/\s+/),
      [EXAMPLES[0]!]: /\bshard: \[([^\]]*)\]/.exec(read(EXAMPLES[0]!))?.[1]?.split(/,\s*/),
      [EXAMPLES[1]!]: /\bSHARD: \[([^\]]*)\]/.exec(read(EXAMPLES[1]!))?.[1]?.split(/,\s*/),
    };
    for (const [file, shards] of Object.entries(lists)) assert.deepEqual(shards, [...PROVIDER_NAMES], `${file}: its shards`);
  });

  it('the GitHub workflow writes the report to the job summary and keeps the results as artifacts', () => {
    const text = read(EXAMPLES[0]!);
    assert.match(text, /compare [^\n]* --markdown >> "\$GITHUB_STEP_SUMMARY"/);
    assert.match(text, /pull_request:/);
    assert.match(text, /matrix:\s+#[^\n]*\n(\s+#[^\n]*\n)*\s+shard: \[/);
    assert.match(text, /actions\/upload-artifact@v4/);
  });

  it('the examples install devboy as a user can (it is not in the npm registry): built from its repository, installed from the packed tarball', () => {
    for (const file of EXAMPLES) {
      const text = read(file);
      assert.doesNotMatch(text, /npx --no-install devboy|npm ci\n/, file);
      assert.match(text, /DEVBOY_REPO: https:\/\/github\.com\/OWNER\/devboy\.git/, file);
      assert.match(text, /git clone --depth 1 --branch "\$DEVBOY_REF" "\$DEVBOY_REPO"/, file);
      assert.match(text, /npm pack --pack-destination/, file);
      assert.match(text, /npm install --global [^\n]*devboy-\*\.tgz/, file);
      assert.match(text, /not in the npm registry/, file);
    }
  });

  it("the Action example uses only the Action's inputs, and the pull-request permission a comment needs", () => {
    const { load } = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };
    const action = load(read('action.yml')) as { inputs: Record<string, unknown> };
    const workflow = load(read('examples', 'github-actions', 'devboy-action.yml')) as {
      permissions: Record<string, string>;
      jobs: Record<string, { steps: { uses?: string; with?: Record<string, unknown> }[] }>;
    };
    const step = Object.values(workflow.jobs)
      .flatMap((j) => j.steps)
      .find((x) => x.uses === 'OWNER/devboy@v1');
    assert.ok(step, 'uses: OWNER/devboy@v1');
    for (const key of Object.keys(step.with ?? {})) assert.ok(key in action.inputs, `${key} is an input of action.yml`);
    assert.equal(workflow.permissions['pull-requests'], 'write');
  });

  it('the GitLab job keeps the Markdown report as an artifact', () => {
    const text = read(EXAMPLES[1]!);
    assert.match(text, /--markdown > devboy-report\.md/);
    assert.match(text, /when: always/);
    assert.match(text, /- devboy-report\.md/);
  });
});
