// Writes test/durations.json: the CPU seconds (user + system, and the children it waited for) each
// test file takes inside npm test's shared processes, which scripts/test-groups.js uses to balance
// them. Run it after adding or reshaping a test file (`node scripts/test-durations.js`, about a
// minute on a quiet 2-core machine); a file it has not measured weighs the median, so a stale table
// costs balance, never a test.
// Why measured in the shared processes and not a file at a time: alone, every file pays a process's
// start-up, the corpus replay and the tokenizer loads (about 1 s), which a shared process pays once;
// those weights made a process of many small files look heavier than it was (10 s of CPU apart).
// Which file pays a load in a shared process depends on the grouping, so each measurement is
// averaged with the one before: the weights settle instead of following the last grouping.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const table = `${root}test/durations.json`;
execFileSync(process.execPath, ['scripts/build-dist.js'], { cwd: root, stdio: 'ignore' });
execFileSync(process.execPath, ['scripts/test-groups.js'], { cwd: root, stdio: 'inherit' });

// Each shared process again, each file in it between two hooks that read the process's CPU time
// and its waited-for children's (/proc/self/stat, Linux). Run side by side, as npm test runs them.
const runDir = `${root}dist/test-run/`;
const timedDir = `${root}dist/test-timed/`;
const log = `${timedDir}cpu.tsv`;
rmSync(timedDir, { recursive: true, force: true });
mkdirSync(timedDir);
const shared = readdirSync(runDir).filter((f) => /^\d+-shared\.test\.js$/.test(f));
const timed = (files) =>
  [
    `import { after, before, describe } from 'node:test';`,
    `import { appendFileSync, readFileSync } from 'node:fs';`,
    `const cpu = () => { const u = process.cpuUsage(); return (u.user + u.system) / 1e6; };`,
    `const children = () => { const f = readFileSync('/proc/self/stat', 'utf8').split(') ')[1].split(' '); return (Number(f[13]) + Number(f[14])) / 100; };`,
    ...files.map(
      (f) =>
        `describe(${JSON.stringify(f)}, async () => {\n` +
        `  let at;\n` +
        `  before(() => { at = cpu() + children(); });\n` +
        `  after(() => appendFileSync(${JSON.stringify(log)}, ${JSON.stringify(f)} + '\\t' + (cpu() + children() - at) + '\\n'));\n` +
        `  await import('../test/${f}');\n` +
        `});`,
    ),
  ].join('\n');
for (const f of shared) {
  const files = [...readFileSync(`${runDir}${f}`, 'utf8').matchAll(/await import\('\.\.\/test\/([^']+)'\)/g)].map((m) => m[1]);
  writeFileSync(`${timedDir}${f}`, timed(files));
}
const failed = await Promise.all(
  shared.map(
    (f) =>
      new Promise((done) => {
        const child = spawn(process.execPath, ['--test', `${timedDir}${f}`], { cwd: root, stdio: 'ignore' });
        child.on('close', (code) => done(code === 0 ? [] : [f]));
      }),
  ),
);
if (failed.flat().length) throw new Error(`test-durations: ${failed.flat().join(', ')} failed; fix the tests first`);

const previous = existsSync(table) ? JSON.parse(readFileSync(table, 'utf8')) : {};
const measured = Object.fromEntries(
  readFileSync(log, 'utf8')
    .trim()
    .split('\n')
    .map((line) => line.split('\t'))
    .map(([f, s]) => [f.replace(/\.js$/, '.ts'), Number(s)]),
);
const out = {};
for (const [f, s] of Object.entries(measured).sort(([a], [b]) => (a < b ? -1 : 1))) {
  out[f] = Math.round(((previous[f] ?? s) + s) * 50) / 100;
  process.stdout.write(`${f}: ${s.toFixed(2)} s, weight ${out[f]}\n`);
}
rmSync(timedDir, { recursive: true, force: true });
writeFileSync(`${table}.tmp`, `${JSON.stringify(out, null, 2)}\n`);
renameSync(`${table}.tmp`, table);
