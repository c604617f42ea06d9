import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { BenchmarkResult } from '../src/benchmark/schema.js';
import { playApis, TOKEN, type Played } from './helpers/comment-api.js';
import { FIXTURES, REPO_ROOT } from './helpers/paths.js';

// The composite Action (action.yml) run as a runner runs it: each `run` step in bash with
// `-eo pipefail`, its `env` expressions filled from the inputs (defaults, then the workflow's
// `with:`), `github.*` and earlier steps' outputs, and the runner's files (GITHUB_OUTPUT,
// GITHUB_STEP_SUMMARY) and event file. `uses` steps are GitHub's own actions (setup-node) and are
// left to GitHub. The build step finds dist/ built, as the test suite built it.

const { load } = createRequire(import.meta.url)('js-yaml') as { load(text: string): unknown };

interface Step {
  id?: string;
  name?: string;
  uses?: string;
  run?: string;
  shell?: string;
  env?: Record<string, string>;
}

interface Action {
  inputs: Record<string, { default?: string }>;
  outputs: Record<string, { value: string }>;
  runs: { using: string; steps: Step[] };
}

const action = load(readFileSync(join(REPO_ROOT, 'action.yml'), 'utf8')) as Action;

interface RunResult {
  /** The exit status of the step that stopped the job, or 0. */
  status: number;
  failedStep?: string;
  outputs: Record<string, string>;
  summary: string;
  stderr: string;
  /** What the steps wrote to standard output, where the runner reads workflow commands (`::warning ...`). */
  stdout: string;
}

/** GITHUB_OUTPUT's `name=value` lines (the runner's simple form; devboy's steps write no multi-line values). */
function readOutputs(file: string): Record<string, string> {
  if (!existsSync(file)) return {};
  return Object.fromEntries(
    readFileSync(file, 'utf8')
      .split('\n')
      .filter((l) => l.includes('='))
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
}

/**
 * Steps with no id that a job of this file already ran with the same script, workspace and step
 * `env`, and what they did. Such a step is setup whose outputs nothing reads (the build step: dist/
 * is there, it prints the version): run again it would do the same, so later jobs replay it, status,
 * standard output and error, instead of starting bash and devboy for it once more. The job's own
 * runner variables (its event, the API it talks to) are left out of the key: setup reads neither,
 * and with them in, the push and read-only jobs each ran it again.
 */
const setupDone = new Map<string, { status: number | null; stderr: string; stdout: string }>();

async function runAction(workspace: string, withInputs: Record<string, string>, env: NodeJS.ProcessEnv): Promise<RunResult> {
  const inputs = Object.fromEntries(Object.entries(action.inputs).map(([k, v]) => [k, v.default ?? '']));
  Object.assign(inputs, withInputs);
  const github: Record<string, string> = { action_path: REPO_ROOT, token: TOKEN };
  const stepOutputs: Record<string, Record<string, string>> = {};
  const expr = (text: string) =>
    text.replace(/\$\{\{\s*([^}]+?)\s*\}\}/g, (_, e: string) => {
      let m = /^inputs\.([\w-]+)$/.exec(e);
      if (m) return String(inputs[m[1]!] ?? '');
      m = /^github\.(\w+)$/.exec(e);
      if (m && github[m[1]!] !== undefined) return github[m[1]!]!;
      m = /^steps\.([\w-]+)\.outputs\.([\w-]+)$/.exec(e);
      if (m) return stepOutputs[m[1]!]?.[m[2]!] ?? '';
      throw new Error(`the simulated runner does not know \${{ ${e} }}`);
    });
  for (const v of Object.values(inputs)) expr(v);
  inputs['token'] = expr(inputs['token']!);
  const summary = join(workspace, 'step-summary.md');
  writeFileSync(summary, '');
  let stderr = '';
  let stdout = '';
  for (const [i, step] of action.runs.steps.entries()) {
    if (step.uses) continue;
    assert.equal(step.shell, 'bash', `step ${i} names its shell, as composite steps must`);
    const output = join(workspace, `output-${i}`);
    writeFileSync(output, '');
    const stepEnv = Object.fromEntries(Object.entries(step.env ?? {}).map(([k, v]) => [k, expr(String(v))]));
    const fullEnv = { ...withoutUndefined({ ...process.env, ...env }), GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary, ...stepEnv };
    const key = step.id === undefined ? JSON.stringify([step.run, workspace, stepEnv]) : undefined;
    // Asynchronously: the API the steps talk to is served by this process.
    const r = (key !== undefined ? setupDone.get(key) : undefined) ?? (await bash(step.run!, workspace, fullEnv));
    if (key !== undefined && r.status === 0) setupDone.set(key, r);
    stderr += r.stderr;
    stdout += r.stdout;
    if (step.id) stepOutputs[step.id] = readOutputs(output);
    if (r.status !== 0)
      return {
        status: r.status ?? 1,
        failedStep: step.name ?? step.id ?? String(i),
        outputs: collect(),
        summary: readFileSync(summary, 'utf8'),
        stderr,
        stdout,
      };
  }
  return { status: 0, outputs: collect(), summary: readFileSync(summary, 'utf8'), stderr, stdout };

  function collect(): Record<string, string> {
    return Object.fromEntries(Object.entries(action.outputs).map(([k, v]) => [k, expr(v.value)]));
  }
}

function bash(
  script: string,
  cwd: string,
  env: Record<string, string>,
): Promise<{ status: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn('bash', ['--noprofile', '--norc', '-eo', 'pipefail', '-c', script], {
      cwd,
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    let stdout = '';
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.on('error', reject);
    child.on('close', (status) => resolve({ status, stderr, stdout }));
  });
}

function withoutUndefined(env: NodeJS.ProcessEnv): Record<string, string> {
  return Object.fromEntries(Object.entries(env).filter((e): e is [string, string] => e[1] !== undefined));
}

function minimalLevelOf(result: BenchmarkResult): BenchmarkResult {
  return {
    ...result,
    settings: { ...result.settings, levels: ['minimal'] },
    rows: result.rows.filter((r) => r.level === 'minimal'),
    heuristic_bias: result.heuristic_bias.filter((b) => b.level === 'minimal'),
    lossy: result.lossy.filter((l) => l.level === 'minimal'),
  };
}

describe('the GitHub Action (action.yml), its steps run in a simulated runner', () => {
  let api: Played;
  let workspace: string;
  let prEvent: string;
  let pushEvent: string;
  // The small fixture's minimal level only (50 of its 200 rows, a quarter of its bytes): each job's
  // compare reads two results, and what the Action does with the verdict is the same for any size.
  const result = minimalLevelOf(JSON.parse(readFileSync(join(FIXTURES, 'report', 'small-result.json'), 'utf8')) as BenchmarkResult);

  before(async () => {
    api = await playApis();
    workspace = mkdtempSync(join(tmpdir(), 'devboy-action-'));
    writeFileSync(join(workspace, 'base.json'), JSON.stringify(result));
    const grown: BenchmarkResult = structuredClone(result);
    for (const r of grown.rows) if (r.format === 'stc') r.tokens = Math.ceil(r.tokens * 1.05);
    writeFileSync(join(workspace, 'grown.json'), JSON.stringify(grown));
    prEvent = join(workspace, 'event-pr.json');
    writeFileSync(prEvent, JSON.stringify({ action: 'opened', number: 12, pull_request: { number: 12 } }));
    pushEvent = join(workspace, 'event-push.json');
    writeFileSync(pushEvent, JSON.stringify({ ref: 'refs/heads/main' }));
  });
  after(async () => {
    await api.close();
    rmSync(workspace, { recursive: true, force: true });
  });

  const runner = (event: string): NodeJS.ProcessEnv => ({
    GITHUB_ACTIONS: 'true',
    GITHUB_REPOSITORY: 'acme/widgets',
    GITHUB_EVENT_PATH: event,
    GITHUB_API_URL: api.url,
    GITHUB_SERVER_URL: 'https://github.example',
    GITHUB_RUN_ID: '5',
    GITHUB_WORKSPACE: workspace,
    DEVBOY_CORPUS: undefined,
    NO_COLOR: '1',
  });

  it('is a composite action with the inputs the docs name', () => {
    assert.equal(action.runs.using, 'composite');
    for (const name of ['baseline', 'max-regression', 'comment', 'fail-on-regression', 'comment-on', 'benchmark-args', 'head', 'token'])
      assert.ok(action.inputs[name], name);
    assert.deepEqual(Object.keys(action.outputs).sort(), ['comment-failed', 'passed', 'report', 'result']);
  });

  it('a regression: the report goes to the job summary and the pull request, passed=false, and the job fails; with fail-on-regression false it passes and the next run updates the one comment', async () => {
    const r = await runAction(workspace, { baseline: 'base.json', head: 'grown.json' }, runner(prEvent));
    assert.equal(r.status, 1, r.stderr);
    assert.equal(r.failedStep, 'Compare');
    assert.equal(r.outputs['passed'], 'false');
    assert.equal(r.outputs['comment-failed'], 'false');
    assert.equal(r.outputs['report'], 'devboy-report.md');
    assert.match(r.summary, /^<!-- devboy compare -->\n## devboy compare\n\n❌ \*\*Failed\*\*: \d+ rows grew more than 0\.50% in tokens/);
    assert.equal(r.summary, readFileSync(join(workspace, 'devboy-report.md'), 'utf8'));
    const [comment, ...more] = api.comments.get(12) ?? [];
    assert.equal(more.length, 0);
    assert.equal(comment!.body, r.summary);
    assert.match(r.stderr, /devboy compare: created the comment on pull request #12/);

    // The same regression with fail-on-regression false: the job passes, and the next run's
    // report replaces the one comment instead of adding a second.
    const again = await runAction(workspace, { baseline: 'base.json', head: 'grown.json', 'fail-on-regression': 'false' }, runner(prEvent));
    assert.equal(again.status, 0, again.stderr);
    assert.equal(again.outputs['passed'], 'false');
    assert.equal(api.comments.get(12)!.length, 1);
    assert.match(again.stderr, /updated the comment on pull request #12/);
  });

  it("a comment the API refuses (403, a fork's read-only token) is a warning: passed=true, comment-failed=true, the job passes", async () => {
    const readOnly = await playApis({ readOnly: true });
    try {
      const env = { ...runner(prEvent), GITHUB_API_URL: readOnly.url };
      const r = await runAction(workspace, { baseline: 'base.json', head: 'base.json' }, env);
      assert.equal(r.status, 0, r.stderr);
      assert.equal(r.outputs['passed'], 'true');
      assert.equal(r.outputs['comment-failed'], 'true');
      assert.match(r.summary, /✅ \*\*Passed\*\*/);
      // One annotation naming the answer (the status and GitHub's words), never the token.
      const warnings = r.stdout.split('\n').filter((l) => l.startsWith('::warning'));
      assert.equal(warnings.length, 1, r.stdout);
      assert.match(
        warnings[0]!,
        /^::warning title=devboy::the comment was not posted: GitHub answered 403 to POST .*Resource not accessible by integration/,
      );
      assert.match(r.stderr, /devboy compare: warning: the comment was not posted: GitHub answered 403/);
      assert.doesNotMatch(r.stdout + r.stderr, new RegExp(TOKEN));

      // A regression is still one, whether or not the comment went out.
      const worse = await runAction(workspace, { baseline: 'base.json', head: 'grown.json' }, env);
      assert.equal(worse.status, 1, worse.stderr);
      assert.equal(worse.failedStep, 'Compare');
      assert.equal(worse.outputs['passed'], 'false');
      assert.equal(worse.outputs['comment-failed'], 'true');
      assert.equal(readOnly.comments.get(12)?.length ?? 0, 0);
    } finally {
      await readOnly.close();
    }
  });

  it('a push event: the job summary only, no request to the API; max-regression sets the bound', async () => {
    const seen = api.seen.length;
    // grown.json's 5% growth is within a 10% bound.
    const push = await runAction(workspace, { baseline: 'base.json', head: 'grown.json', 'max-regression': '10' }, runner(pushEvent));
    assert.equal(push.status, 0, push.stderr);
    assert.equal(push.outputs['passed'], 'true');
    assert.match(push.summary, /✅ \*\*Passed\*\*/);
    assert.equal(api.seen.length, seen);
  });

  it("benchmarks when no head is given, with the caller's arguments; comment false: no request to the API", async () => {
    const seen = api.seen.length;
    const r = await runAction(
      workspace,
      {
        // An absolute path outside the workspace; the small fixture holds the rows this head
        // measures (artsy's comments, json and json-compact at the minimal level), so they compare.
        baseline: join(FIXTURES, 'report', 'small-result.json'),
        // The heuristic tokenizer and json: o200k_base's ranks, or TOON's encoder, take a devboy
        // process longer to load than the run itself.
        'benchmark-args':
          '--project artsy__emission --dataset comments --levels minimal --formats json-compact,json --runs 1 --tokenizers heuristic',
        comment: 'false',
      },
      runner(prEvent),
    );
    assert.equal(r.status, 0, r.stderr);
    assert.equal(r.outputs['result'], 'devboy-head.json');
    const head = JSON.parse(readFileSync(join(workspace, 'devboy-head.json'), 'utf8')) as BenchmarkResult;
    assert.deepEqual(head.settings.formats, ['json-compact', 'json']);
    assert.deepEqual(
      head.tokenizers.map((t) => t.name),
      ['heuristic'],
    );
    assert.match(r.summary, /## devboy compare\n\n✅ \*\*Passed\*\*/);
    assert.match(r.stderr, /PASSED: .*\(2 rows compared under 1 tokenizer/);
    // A pull request event, yet comment is false.
    assert.equal(api.seen.length, seen);
  });

  it("a baseline that is not there stops the job with devboy's one-line error, not a report", async () => {
    const r = await runAction(workspace, { baseline: 'missing.json', head: 'base.json', comment: 'false' }, runner(prEvent));
    assert.equal(r.status, 2);
    assert.equal(r.outputs['passed'], '');
    assert.match(r.stderr, /devboy compare: .*missing\.json/);
  });
});
