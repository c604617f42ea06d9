import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { BenchContext, BenchOutcome, BenchSection } from './section.js';

const CLI = fileURLToPath(new URL('../../bin/run.js', import.meta.url));

/**
 * CLI start-up against a bare `node -e ''` measured in the same run: heavy modules (tokenizers, API
 * clients) load lazily, so `--help` and a small convert should stay within 2.5x of bare Node (issue 13).
 */
export const startupSection: BenchSection = {
  name: 'startup',
  description: "CLI start-up (--help, a small convert) as a ratio to a bare `node -e ''`",
  async run(ctx: BenchContext): Promise<BenchOutcome> {
    const runs = Number(ctx.options.get('startup-runs') ?? 15);
    const small = join(ctx.tmpDir, 'small.json');
    writeFileSync(
      small,
      JSON.stringify({
        issues: [
          { key: 'gh#1', title: 'a', state: 'open' },
          { key: 'gh#2', title: 'b', state: 'closed' },
        ],
      }),
    );
    const cases: { name: string; args: string[] }[] = [
      { name: "node -e ''", args: ['-e', ''] },
      { name: 'devboy --help', args: [CLI, '--help'] },
      { name: 'devboy convert small.json --to toon', args: [CLI, 'convert', small, '--to', 'toon'] },
      { name: 'devboy convert small.json --to stc --verify', args: [CLI, 'convert', small, '--to', 'stc', '--verify'] },
    ];
    const medians = new Map<string, number>();
    // Interleave the cases so drift in machine load affects all of them alike.
    const samples = new Map(cases.map((c) => [c.name, [] as number[]]));
    // Progress only: the table itself is the report on stdout, printed once.
    ctx.log(`  ${runs} rounds of ${cases.length} processes`);
    for (let i = 0; i < runs; i++) {
      for (const c of cases) {
        const start = performance.now();
        const r = spawnSync(process.execPath, c.args, { stdio: 'ignore' });
        if (r.status !== 0) throw new Error(`${c.name} exited ${r.status}`);
        samples.get(c.name)!.push(performance.now() - start);
      }
    }
    for (const [name, xs] of samples) medians.set(name, median(xs));
    const bare = medians.get("node -e ''")!;
    const rows = cases.map((c) => ({ name: c.name, median_ms: medians.get(c.name)!, vs_bare_node: medians.get(c.name)! / bare }));
    const text = [
      `Start-up, median of ${runs} runs (wall clock, whole process); ratio to bare node in the same run (target: within 2.5x)`,
      ...rows.map((r) => `${r.name.padEnd(44)} ${r.median_ms.toFixed(0).padStart(5)} ms  ${r.vs_bare_node.toFixed(2)}x`),
    ].join('\n');
    return { text, data: { runs, rows } };
  },
};

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}
