// Writes test/durations.json: the CPU seconds (user + system, children included) each test file
// takes when it runs alone, which scripts/test-groups.js uses to balance the fast suite's shared
// processes. Run it after adding or reshaping a test file (`node scripts/test-durations.js`, about
// five minutes on a quiet 2-core machine, one file at a time); a file it has not measured gets the
// median weight, so a stale table costs balance, never a test.
import { execFileSync, spawnSync } from 'node:child_process';
import { readdirSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
execFileSync(process.execPath, ['scripts/build-dist.js'], { cwd: root, stdio: 'ignore' });
const files = readdirSync(`${root}dist/test`)
  .filter((f) => f.endsWith('.test.js'))
  .sort();
const out = {};
for (const f of files) {
  // bash's `times` reports the children's CPU time once node --test and its file process have ended.
  const r = spawnSync('bash', ['-c', `node --test "dist/test/${f}" > /dev/null 2>&1; times`], { cwd: root, encoding: 'utf8' });
  const [, children] = r.stdout.trim().split('\n');
  const seconds = [...children.matchAll(/(\d+)m([\d.]+)s/g)].reduce((s, m) => s + Number(m[1]) * 60 + Number(m[2]), 0);
  out[f.replace(/\.js$/, '.ts')] = Math.round(seconds * 10) / 10;
  process.stdout.write(`${f}: ${out[f.replace(/\.js$/, '.ts')]} s\n`);
}
writeFileSync(`${root}test/durations.json.tmp`, `${JSON.stringify(out, null, 2)}\n`);
renameSync(`${root}test/durations.json.tmp`, `${root}test/durations.json`);
