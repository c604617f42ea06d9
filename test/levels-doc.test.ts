import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { DATASET_KINDS, kindedItems, itemsOf, type Dataset, type DatasetKind, type FileDiff } from '../src/model/index.js';
import { respondWithinBudget } from '../src/budget/respond-within-budget.js';
import { loadFormat } from '../src/formats/registry.js';
import { DETAIL_LEVELS, diffLineCounts, itemAtLevel, LEAST_DETAIL, UPGRADE_LEVELS } from '../src/trim/levels.js';
import { budgetInput, corpusDatasets, memoTokenizer } from './helpers/budget.js';
import { REPO_ROOT } from './helpers/paths.js';

/**
 * docs/levels.md is what users read about each level; src/trim/levels.ts is what runs. Every item of
 * the corpus, at every level, must carry exactly the fields the document lists, in its order.
 */

interface DocField {
  name: string;
  /** `?` in the document, or "(only if any)": the field may be absent. */
  optional: boolean;
}

const ROW_KIND: Record<string, DatasetKind> = {
  issue: 'issues',
  'merge request': 'merge_requests',
  'file diff': 'diffs',
  comment: 'comments',
  discussion: 'discussions',
};

/** The fields of one table cell: "`a, b` (only if any)`, c?` (note)" → a, b?, c?; a nested `[{...}]` belongs to its field. */
function fieldsOf(cell: string): DocField[] {
  const flat = cell
    .replace(/`\s*\(only if[^()]*\)\s*(`|$)/g, (_, next: string) => (next === '`' ? '?' : '?`'))
    .replace(/`\s*\([^()]*\)\s*(`|$)/g, (_, next: string) => (next === '`' ? '' : '`'))
    .replace(/`/g, '');
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of flat) {
    if (ch === '[' || ch === '{') depth++;
    if (ch === ']' || ch === '}') depth--;
    if (ch === ',' && depth === 0) {
      parts.push(current);
      current = '';
    } else current += ch;
  }
  parts.push(current);
  return parts.map((part) => {
    const head = part.trim().split(':')[0]!;
    return { name: head.replace('?', '').trim(), optional: head.includes('?') };
  });
}

function documentedFields(): Map<DatasetKind, Record<'standard' | 'minimal', DocField[]>> {
  const doc = readFileSync(join(REPO_ROOT, 'docs', 'levels.md'), 'utf8');
  const out = new Map<DatasetKind, Record<'standard' | 'minimal', DocField[]>>();
  for (const line of doc.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const kind = ROW_KIND[cells[1] ?? ''];
    if (kind === undefined) continue;
    out.set(kind, { standard: fieldsOf(cells[2]!), minimal: fieldsOf(cells[3]!) });
  }
  return out;
}

let datasets: Dataset[];
before(async () => {
  datasets = await corpusDatasets();
});

describe('docs/levels.md tables', () => {
  it('are read as the field lists they show', () => {
    const doc = documentedFields();
    assert.deepEqual([...doc.keys()].sort(), [...DATASET_KINDS].sort());
    assert.deepEqual(
      doc.get('merge_requests')!.minimal.map((f) => f.name),
      ['key', 'title', 'state', 'source_branch', 'target_branch'],
    );
    assert.deepEqual(
      doc.get('issues')!.standard.map((f) => `${f.name}${f.optional ? '?' : ''}`),
      ['key', 'title', 'state', 'source', 'priority?', 'labels?', 'description?', 'author?', 'url?'],
    );
    assert.deepEqual(
      doc.get('discussions')!.standard.map((f) => `${f.name}${f.optional ? '?' : ''}`),
      ['id', 'resolved', 'position?', 'comments'],
    );
  });
});

describe('every corpus item at every level has the documented fields, in order', () => {
  const doc = documentedFields();
  for (const kind of DATASET_KINDS) {
    for (const level of DETAIL_LEVELS.filter((l) => l !== 'full')) {
      it(`${kind} at ${level}`, () => {
        const fields = doc.get(kind)![level as 'standard' | 'minimal'];
        const names = fields.map((f) => f.name);
        let items = 0;
        for (const dataset of datasets) {
          for (const entry of kindedItems(itemsOf(dataset))) {
            if (entry.kind !== kind) continue;
            items++;
            const keys = Object.keys(itemAtLevel(entry, level));
            const where = `${dataset.label} item ${items} at ${level}`;
            for (const k of keys) assert.ok(names.includes(k), `${where}: ${k} is not in docs/levels.md (${names.join(', ')})`);
            const order = keys.map((k) => names.indexOf(k));
            assert.deepEqual(
              order,
              [...order].sort((a, b) => a - b),
              `${where}: fields out of the documented order: ${keys.join(', ')}`,
            );
            for (const f of fields) if (!f.optional) assert.ok(keys.includes(f.name), `${where}: ${f.name} is missing`);
          }
        }
        assert.ok(items > 0, `the corpus has ${kind}`);
      });
    }
  }
});

describe('diff line counts', () => {
  const diff = (patch: string): FileDiff => ({
    file_path: 'a.c',
    new_file: false,
    deleted_file: false,
    renamed_file: false,
    diff: patch,
  });

  it('inside a hunk, a line whose content starts with ++ or -- is an added or removed line', () => {
    const patch = ['@@ -1,3 +1,3 @@', ' int i;', '---i;', '+++i;', '-- comment', '++ comment', ' }'].join('\n');
    assert.deepEqual(diffLineCounts(diff(patch)), { additions: 2, deletions: 2 });
  });

  it('file headers before the first hunk are not counted, in each file of a multi-file patch', () => {
    const patch = [
      'diff --git a/a.c b/a.c',
      '--- a/a.c',
      '+++ b/a.c',
      '@@ -1 +1 @@',
      '-old',
      '+new',
      'diff --git a/b.c b/b.c',
      '--- a/b.c',
      '+++ b/b.c',
      '@@ -1 +1,2 @@',
      ' same',
      '+++counter;',
    ].join('\n');
    assert.deepEqual(diffLineCounts(diff(patch)), { additions: 2, deletions: 1 });
  });

  it('the provider counts win when it sends them', () => {
    assert.deepEqual(diffLineCounts({ ...diff('@@ -1 +1 @@\n-a\n+b'), additions: 7, deletions: 9 }), { additions: 7, deletions: 9 });
  });
});

describe('the budget pipeline (devboy format) uses every level of src/trim/levels.ts', () => {
  it('the least detail is the floor, the others are upgrades, least first', () => {
    assert.deepEqual([...UPGRADE_LEVELS, LEAST_DETAIL].sort(), [...DETAIL_LEVELS].sort());
    assert.equal(UPGRADE_LEVELS.length, DETAIL_LEVELS.length - 1);
    assert.deepEqual([...UPGRADE_LEVELS].reverse(), DETAIL_LEVELS.slice(0, -1));
  });

  it('responses trimmed to a budget hold items at every detail level (corpus merge request lists)', async () => {
    const { tokenizer, count } = await memoTokenizer('o200k_base');
    const format = await loadFormat('json-compact');
    const seen = new Set<string>();
    for (const d of datasets.filter((x) => itemsOf(x).kind === 'merge_requests' && x.result.items.length >= 10)) {
      const whole = tokenizer.count(format.encode(itemsOf(d).items as never));
      for (const share of [0.5, 0.95]) {
        const r = respondWithinBudget(budgetInput(d), { format, tokenizer, count, budget: Math.floor(whole * share) });
        for (const l of r.levels) seen.add(l.level);
        for (const level of DETAIL_LEVELS) assert.equal(r.detail[level], r.levels.filter((l) => l.level === level).length);
      }
      if (seen.size === DETAIL_LEVELS.length) break;
    }
    assert.deepEqual([...seen].sort(), [...DETAIL_LEVELS].sort());
  });
});
