import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { startupSection } from '../bench/startup.js';

// Not a timing test: one run of each case, to see what the section prints (`npm run bench -- --only
// startup` printed its table twice on a terminal, once as progress on stderr and once as the report).
describe('bench startup section', () => {
  it('prints its table once: progress lines are not the report again', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'devboy-bench-startup-'));
    const logged: string[] = [];
    try {
      const outcome = await startupSection.run({ options: new Map([['startup-runs', '1']]), tmpDir: tmp, log: (l) => logged.push(l) });
      const reportLines = new Set(outcome.text.split('\n').map((l) => l.trim()));
      assert.ok(
        [...reportLines].some((l) => l.startsWith('devboy --help')),
        outcome.text,
      );
      assert.deepEqual(
        logged.filter((l) => reportLines.has(l.trim())),
        [],
      );
    } finally {
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});
