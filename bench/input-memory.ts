import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { FORMAT_NAMES } from '../src/formats/types.js';
import { corpusPath } from './budget-common.js';
import { measureChild } from './measure-child.js';
import type { BenchContext, BenchOutcome, BenchSection } from './section.js';

const CLI = fileURLToPath(new URL('../../bin/run.js', import.meta.url));
const ISSUES = 'github/betamaxpy__betamax/003_GET_repos_betamaxpy_betamax_issues_state_all_per_page_100.json';

/**
 * What reading an input whole costs: peak RSS of `devboy convert FILE --to F -o OUT` as a multiple
 * of the input's size, for every format, at two sizes (default 8 and 32 MB of real GitHub issues
 * repeated), beside a bare `node -e ''` measured in the same run. The input cap
 * (DEVBOY_MAX_INPUT_MB, src/io/input-limit.ts) is set from these multiples.
 */
export const inputMemorySection: BenchSection = {
  name: 'input-memory',
  description: 'peak RSS of convert per format as a multiple of the input size (what the input cap bounds)',
  async run(ctx: BenchContext): Promise<BenchOutcome> {
    const sizes = (ctx.options.get('input-mb') ?? '8,32').split(',').map(Number);
    const issues = (JSON.parse(readFileSync(join(corpusPath(), ISSUES), 'utf8')) as { response: { body: object[] } }).response.body;
    const bare = await measureChild('-e', [''], { tmpDir: ctx.tmpDir });
    const rows: { mb: number; format: string; peakMb: number; multiple: number; overBare: number; exit: number | null }[] = [];
    for (const mb of sizes) {
      const file = join(ctx.tmpDir, `input-${mb}.json`);
      writeFileSync(file, JSON.stringify(repeatTo(issues, mb * 1e6)));
      const size = statSync(file).size;
      for (const format of FORMAT_NAMES) {
        const run = await measureChild(CLI, ['convert', file, '--to', format, '-o', join(ctx.tmpDir, 'out')], { tmpDir: ctx.tmpDir });
        const peak = run.peakRssBytes ?? Number.NaN;
        rows.push({
          mb: Math.round(size / 1e5) / 10,
          format,
          peakMb: Math.round(peak / 1e5) / 10,
          multiple: Math.round((peak / size) * 10) / 10,
          overBare: Math.round(((peak - (bare.peakRssBytes ?? 0)) / size) * 10) / 10,
          exit: run.exitCode,
        });
        ctx.log(`  ${format} ${(size / 1e6).toFixed(1)} MB: ${(peak / 1e6).toFixed(0)} MB peak RSS`);
      }
    }
    const lines = [
      `Peak RSS of devboy convert FILE --to F -o OUT, as a multiple of the input size (bare node: ${((bare.peakRssBytes ?? 0) / 1e6).toFixed(0)} MB, measured in the same run)`,
      'input MB  format        peak MB  x input  x input over bare node',
      ...rows.map(
        (r) =>
          `${String(r.mb).padStart(8)}  ${r.format.padEnd(12)} ${String(r.peakMb).padStart(8)}  ${String(r.multiple).padStart(7)}  ${String(r.overBare).padStart(8)}${r.exit === 0 ? '' : `  (exit ${r.exit})`}`,
      ),
      `Largest multiple: ${Math.max(...rows.map((r) => r.multiple))}x; the default input cap (128 MiB) bounds a run at that multiple.`,
    ];
    return { text: lines.join('\n'), data: { bare_peak_rss_bytes: bare.peakRssBytes, rows } };
  },
};

/** Issues repeated (with distinct ids) until their compact JSON passes `bytes`. */
function repeatTo(items: object[], bytes: number): object[] {
  const out: object[] = [];
  let size = 2;
  for (let i = 0; size < bytes; i++) {
    const item = { ...items[i % items.length], id: i };
    out.push(item);
    size += JSON.stringify(item).length + 1;
  }
  return out;
}
