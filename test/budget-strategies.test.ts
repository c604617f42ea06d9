import assert from 'node:assert/strict';
import { before, describe, it } from 'node:test';
import { respondWithinBudget, type BudgetInput } from '../src/budget/respond-within-budget.js';
import { fileType } from '../src/budget/strategies/file-type.js';
import { readingOrder, STRATEGIES } from '../src/budget/strategies/strategy.js';
import { loadFormat } from '../src/formats/registry.js';
import type { Format } from '../src/formats/types.js';
import type { JsonObject } from '../src/json/types.js';
import type { Comment, Discussion, FileDiff, Issue } from '../src/model/index.js';
import type { Dataset } from '../src/model/index.js';
import { itemAtLevel } from '../src/trim/levels.js';
import { budgetInput, corpusDatasets, memoTokenizer, responseBody } from './helpers/budget.js';

let datasets: Dataset[];
let toon: Format;
let compact: Format;
let o200k: Awaited<ReturnType<typeof memoTokenizer>>;

before(async () => {
  datasets = await corpusDatasets();
  toon = await loadFormat('toon');
  compact = await loadFormat('json-compact');
  o200k = await memoTokenizer('o200k_base');
});

const byLabel = (fragment: string, kind?: string) => {
  const found = datasets.filter((d) => d.label.includes(fragment) && (kind === undefined || d.kind === kind));
  assert.ok(found.length > 0, `no dataset labelled like ${fragment}`);
  return found[0]!;
};

/** Tokens the full item costs alone in json-compact: what a budget must be measured against. */
const tokensOf = (v: unknown) => o200k.count(JSON.stringify(v));

describe('size_proportional: file-type weights applied to diffs (real PR files)', () => {
  it('classifies the corpus paths by file type', () => {
    assert.equal(fileType('Cargo.lock'), 'lock');
    assert.equal(fileType('github3/pulls.py'), 'source');
    assert.equal(fileType('tests/unit/test_pulls.py'), 'test');
    assert.equal(fileType('tests/cassettes/PullRequest_create_review_comment.json'), 'test');
    assert.equal(fileType('src/handlers/project_goals.rs'), 'source');
    assert.equal(fileType('web/vendor/app.min.js'), 'minified');
    assert.equal(fileType('db/migrate/20190101_add_index.rb'), 'migration');
    assert.equal(fileType('package-lock.json'), 'lock');
  });

  it('a lock file loses to source code: Cargo.lock (570 lines) keeps none of its patch while source files keep theirs', () => {
    const d = byLabel('/pulls/2471/files');
    const diffs = d.result.items as FileDiff[];
    const lock = diffs.findIndex((f) => f.file_path === 'Cargo.lock');
    assert.ok(lock >= 0 && diffs[lock]!.diff.split('\n').length > 500);
    const values = STRATEGIES.size_proportional.itemValues({ kind: 'diffs', items: diffs });
    const sourceBigger = diffs.filter((f, i) => fileType(f.file_path) === 'source' && values[i]! > values[lock]!);
    assert.ok(
      sourceBigger.length >= 5,
      'source files are worth more than the lock file, though the lock file has more changed lines than most',
    );
    const order = readingOrder(values);
    assert.ok(order.indexOf(lock) > order.indexOf(diffs.findIndex((f) => f.file_path === 'src/github/repos.rs')));
    for (const budget of [1500, 3000, 6000]) {
      const r = respondWithinBudget(budgetInput(d), { format: compact, tokenizer: o200k.tokenizer, count: o200k.count, budget });
      const out = JSON.parse(responseBody(r.content)) as JsonObject[];
      const kept = (path: string) => {
        const diff = out.find((o) => o['file_path'] === path)?.['diff'];
        return typeof diff === 'string' ? diff.split('\n').filter((l) => !l.startsWith('…[cut')).length : 0;
      };
      assert.equal(kept('Cargo.lock'), 0, `budget ${budget}: the lock file's patch is cut`);
      assert.ok(
        kept('src/github/queries/recent_commits.rs') + kept('src/github/repos.rs') > 20,
        `budget ${budget}: source patches are kept`,
      );
    }
  });

  it('without the file-type weights (default strategy) the lock file keeps patch lines at some budget: the weights make the difference', () => {
    const d = byLabel('/pulls/2471/files');
    const lockLines = (strategy: 'default' | 'size_proportional', budget: number) => {
      const r = respondWithinBudget(budgetInput(d), { format: compact, tokenizer: o200k.tokenizer, count: o200k.count, budget, strategy });
      const lock = (JSON.parse(responseBody(r.content)) as JsonObject[]).find((o) => o['file_path'] === 'Cargo.lock');
      return typeof lock?.['diff'] === 'string' ? lock['diff'].split('\n').filter((l) => !l.startsWith('…[cut')).length : 0;
    };
    const budgets = [4000, 6000, 8000, 10000];
    assert.ok(budgets.some((b) => lockLines('default', b) > 0));
    assert.ok(budgets.every((b) => lockLines('size_proportional', b) <= lockLines('default', b)));
  });
});

describe('thread_level (real review threads)', () => {
  it('an unresolved thread beats a resolved one: it is read first and keeps more of its text', () => {
    // The corpus has no resolved thread (GitHub's REST API does not report resolution), so the test marks
    // every other real thread resolved; text, sizes and order are the recorded ones.
    const d = byLabel('/repos/octokit/octokit.rb/pulls/comments', 'discussions');
    const threads = (d.result.items as Discussion[]).map((t, i) => ({ ...t, resolved: i % 2 === 0 }));
    const values = STRATEGIES.thread_level.itemValues({ kind: 'discussions', items: threads });
    const order = readingOrder(values);
    const firstResolved = order.findIndex((i) => threads[i]!.resolved);
    assert.ok(
      order.slice(0, firstResolved).every((i) => !threads[i]!.resolved) && order.slice(firstResolved).every((i) => threads[i]!.resolved),
      'all unresolved before all resolved',
    );
    const input: BudgetInput = { kind: 'discussions', items: threads };
    const full = o200k.count(toon.encode(threads as unknown as JsonObject[]));
    // One chunk, not all detail: unresolved threads keep their text first.
    const one = respondWithinBudget(input, { format: toon, tokenizer: o200k.tokenizer, count: o200k.count, budget: Math.floor(full / 3) });
    assert.equal(one.metadata.total_chunks, 1);
    const detailed = (resolved: boolean) =>
      one.included.filter((i, k) => threads[i]!.resolved === resolved && one.levels[k]!.level !== 'minimal').length;
    assert.ok(detailed(false) > detailed(true), `${detailed(false)} unresolved and ${detailed(true)} resolved threads keep their text`);
    // Several chunks: chunk 1 is the unresolved threads.
    const r = respondWithinBudget(input, { format: toon, tokenizer: o200k.tokenizer, count: o200k.count, budget: 300 });
    assert.ok(r.metadata.total_chunks > 1);
    const first = new Set(r.included);
    const unresolvedIn = threads.filter((t, i) => !t.resolved && first.has(i)).length;
    const resolvedIn = threads.filter((t, i) => t.resolved && first.has(i)).length;
    assert.ok(unresolvedIn > 0 && resolvedIn === 0, `chunk 1 holds ${unresolvedIn} unresolved and ${resolvedIn} resolved threads`);
  });

  it('a long thread keeps its first and last comment and cuts the middle with a marker', () => {
    // A thread of real comments: the 30 issue comments of octokit.rb, in their recorded order.
    const comments = (byLabel('/repos/octokit/octokit.rb/issues/comments', 'comments').result.items as Comment[]).slice(0, 30);
    const thread: Discussion = { id: 'thread-1', resolved: false, comments };
    const all = itemAtLevel({ kind: 'discussions', item: thread }, 'standard');
    const budget = Math.floor(tokensOf(all) / 3);
    const r = respondWithinBudget(
      { kind: 'discussions', items: [thread] },
      { format: compact, tokenizer: o200k.tokenizer, count: o200k.count, budget, strategy: 'thread_level' },
    );
    const [out] = JSON.parse(responseBody(r.content)) as JsonObject[];
    const list = out!['comments'] as (JsonObject | string)[];
    assert.ok(Array.isArray(list), 'the thread is at standard or full detail');
    assert.equal((list[0] as JsonObject)['id'], comments[0]!.id);
    assert.equal((list.at(-1) as JsonObject)['id'], comments.at(-1)!.id);
    assert.ok(
      list.some((c) => typeof c === 'string' && /^…\[cut \d+ comments?\]$/.test(c)),
      'middle comments cut with a marker',
    );
    assert.ok(o200k.count(r.content) <= budget);
  });
});

describe('cascading (real GitLab notes, listed newest first by the API)', () => {
  it('reads newest first by created_at, whatever order the provider listed them in', () => {
    const d = datasets.find((x) => x.provider === 'gitlab' && x.kind === 'comments')!;
    const notes = d.result.items as Comment[];
    const order = readingOrder(STRATEGIES.cascading.itemValues({ kind: 'comments', items: notes }));
    const times = order.map((i) => Date.parse(notes[i]!.created_at!));
    for (let k = 1; k < times.length; k++) assert.ok(times[k - 1]! >= times[k]!, 'newest first');
    const reversed = [...notes].reverse();
    const order2 = readingOrder(STRATEGIES.cascading.itemValues({ kind: 'comments', items: reversed }));
    assert.deepEqual(
      order2.map((i) => reversed[i]!.id),
      order.map((i) => notes[i]!.id),
    );
  });

  it('chunk 1 of a chunked comment list holds the newest comments', () => {
    const d = byLabel('/repos/octokit/octokit.rb/issues/comments', 'comments');
    const comments = d.result.items as Comment[];
    const r = respondWithinBudget(budgetInput(d), { format: toon, tokenizer: o200k.tokenizer, count: o200k.count, budget: 500 });
    assert.ok(r.metadata.total_chunks > 1);
    const newestIn = Math.max(...r.included.map((i) => Date.parse(comments[i]!.created_at!)));
    const newestAll = Math.max(...comments.map((c) => Date.parse(c.created_at!)));
    assert.equal(newestIn, newestAll);
    const oldestIn = Math.min(...r.included.map((i) => Date.parse(comments[i]!.created_at!)));
    const left = comments.filter((_, i) => !r.included.includes(i)).map((c) => Date.parse(c.created_at!));
    assert.ok(
      left.every((t) => t <= oldestIn),
      'every comment left for later chunks is older than all in chunk 1',
    );
  });
});

describe('element_count (real issue list)', () => {
  it('earlier issues keep more detail than later ones', () => {
    const d = datasets.find((x) => x.project === 'betamaxpy__betamax' && x.result.items.length > 50)!;
    const r = respondWithinBudget(budgetInput(d), { format: toon, tokenizer: o200k.tokenizer, count: o200k.count, budget: 4000 });
    const out = (toon.decode(responseBody(r.content)) as JsonObject[]).map((o) => Object.keys(o).length);
    const half = Math.floor(out.length / 2);
    const avg = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
    assert.ok(avg(out.slice(0, half)) > avg(out.slice(half)), 'first half has more fields per issue');
    assert.equal(r.metadata.chunked, false);
    assert.equal(r.included.length, d.result.items.length, 'every issue is in, the later ones at minimal detail');
  });
});

describe('head_tail (a real Jira description holding a console log)', () => {
  it('keeps the error lines and the end of the log where head-first cutting keeps only the top', () => {
    const d = datasets.find(
      (x) => x.provider === 'jira' && x.kind === 'issues' && x.result.items.some((i) => (i as Issue).key === 'ALOY-1015'),
    )!;
    const issue = (d.result.items as Issue[]).find((i) => i.key === 'ALOY-1015')!;
    const lines = issue.description!.split('\n');
    const errorLines = lines.filter((l) => l.startsWith('[ERROR]'));
    assert.ok(errorLines.length >= 6 && lines.length > 70);
    const budget = tokensOf(itemAtLevel({ kind: 'issues', item: issue }, 'minimal')) + Math.floor(tokensOf(issue.description) * 0.45);
    const keptLines = (strategy: 'head_tail' | 'element_count') => {
      const r = respondWithinBudget(
        { kind: 'issues', items: [issue] },
        { format: compact, tokenizer: o200k.tokenizer, count: o200k.count, budget, strategy },
      );
      assert.ok(o200k.count(r.content) <= budget);
      const [out] = JSON.parse(responseBody(r.content)) as JsonObject[];
      return String(out!['description'] ?? '').split('\n');
    };
    const tail = keptLines('head_tail');
    const head = keptLines('element_count');
    assert.ok(tail.some((l) => l.startsWith('…[cut')) && head.some((l) => l.startsWith('…[cut')), 'both cut the description');
    const errors = (kept: string[]) => kept.filter((l) => l.startsWith('[ERROR]')).length;
    assert.ok(errors(tail) > errors(head), `head_tail keeps ${errors(tail)} error lines, head-first ${errors(head)}`);
    assert.equal(tail.at(-1), lines.at(-1), 'head_tail keeps the last line');
    assert.equal(head[0], lines[0], 'head-first keeps the first line');
  });
});
