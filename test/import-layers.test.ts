import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { describe, it } from 'node:test';
import { REPO_ROOT } from './helpers/paths.js';

// docs/architecture.md draws src/ as folders that data flows through one way. A helper put in the
// wrong folder (report/words.ts, imported by budget/, convert/, transcript/ and proxy/) ties folders
// into a loop that the compiler does not see: no folder may reach itself through value imports. The
// check reads the built modules (dist/src, one per source file), where type-only imports are gone.

const BUILT = join(REPO_ROOT, 'dist', 'src');
const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)"(\.[^"]+)"/g;

/** Where a folder of src/ (or a file at its root) imports values from, with one file that does, per target. */
function folderImports(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of readdirSync(BUILT, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js'))) {
    const path = join(BUILT, file);
    const from = unitOf(path);
    for (const [, specifier] of readFileSync(path, 'utf8').matchAll(SPECIFIER)) {
      const to = unitOf(resolve(dirname(path), specifier!));
      if (to === from) continue;
      const edges = graph.get(from) ?? new Map<string, string>();
      if (!edges.has(to)) edges.set(to, join('src', file).replace(/\.js$/, '.ts'));
      graph.set(from, edges);
    }
  }
  return graph;
}

/** A folder of src/, or a file at its root (errors.ts, versions.ts, index.ts) as a unit of its own. */
function unitOf(path: string): string {
  return relative(BUILT, path).split(sep)[0]!.replace(/\.js$/, '.ts');
}

/** A loop of units, each importing the next, with the file that makes each step; none when there is no loop. */
function findLoop(graph: Map<string, Map<string, string>>): string[] | undefined {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const walk = (unit: string): string[] | undefined => {
    state.set(unit, 'open');
    path.push(unit);
    for (const next of graph.get(unit)?.keys() ?? []) {
      if (state.get(next) === 'open') {
        const loop = [...path.slice(path.indexOf(next)), next];
        return loop.slice(1).map((to, i) => `${loop[i]} -> ${to} (${graph.get(loop[i]!)!.get(to)})`);
      }
      if (!state.has(next)) {
        const found = walk(next);
        if (found) return found;
      }
    }
    path.pop();
    state.set(unit, 'done');
    return undefined;
  };
  for (const unit of [...graph.keys()].sort()) {
    if (state.has(unit)) continue;
    const found = walk(unit);
    if (found) return found;
  }
  return undefined;
}

describe('src/ folders import one way', () => {
  it('no folder of src/ reaches itself through value imports', () => {
    const graph = folderImports();
    assert.ok((graph.get('report')?.size ?? 0) > 3, 'the import graph was read (report/ imports other folders)');
    assert.deepEqual(findLoop(graph), undefined);
  });

  it('the check sees a loop when one is there', () => {
    const graph = new Map([
      ['budget', new Map([['report', 'src/budget/a.ts']])],
      ['report', new Map([['formats', 'src/report/b.ts']])],
      ['formats', new Map([['budget', 'src/formats/c.ts']])],
    ]);
    assert.deepEqual(findLoop(graph), [
      'budget -> report (src/budget/a.ts)',
      'report -> formats (src/report/b.ts)',
      'formats -> budget (src/formats/c.ts)',
    ]);
  });
});
