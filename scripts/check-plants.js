// Plants each known bug of test/plants/plants.json into the source, one at a time, and checks that the
// test files it names fail; restores the source after each. A plant the tests do not catch, or one
// whose `find` text is gone from its file (the code moved: update the plant), fails this script.
// Why: a suite that passes proves little until it is seen to fail on the bugs a reviewer would plant.
// `npm run test:plants`; add a plant whenever a bug slips past `npm test` (docs/architecture.md).
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const plants = JSON.parse(readFileSync(`${root}test/plants/plants.json`, 'utf8'));
const only = process.argv[2];
let failed = 0;
// A plant's `tests` (optional) is a --test-name-pattern: only the tests that catch it run, so a plant
// caught by one test of a slow file does not run the whole file twice.
const command = (plant) => [
  '--test',
  ...(plant.tests ? [`--test-name-pattern=${plant.tests}`] : []),
  ...plant.caught_by.map((name) => `dist/test/${name}.test.js`),
];
execFileSync(process.execPath, ['scripts/build-dist.js'], { cwd: root, stdio: 'ignore' });
// The tests must pass without a plant, or a failure would prove nothing; and some must run.
for (const args of new Map(plants.map((p) => [JSON.stringify(command(p)), command(p)])).values()) {
  const clean = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8' });
  if (clean.status !== 0 || !/^# pass [1-9]/m.test(clean.stdout)) {
    console.log(`FAIL without a plant, node ${args.join(' ')} ${clean.status !== 0 ? 'fails' : 'runs no test'}`);
    process.exit(1);
  }
}
for (const plant of plants) {
  if (only !== undefined && !plant.bug.includes(only)) continue;
  const path = `${root}${plant.file}`;
  const original = readFileSync(path, 'utf8');
  const at = original.indexOf(plant.find);
  if (at < 0 || original.indexOf(plant.find, at + 1) >= 0) {
    console.log(`FAIL ${plant.bug}: ${plant.file} holds "${plant.find}" ${at < 0 ? 'nowhere' : 'more than once'}`);
    failed++;
    continue;
  }
  try {
    writeFileSync(path, original.slice(0, at) + plant.replace + original.slice(at + plant.find.length));
    execFileSync(process.execPath, ['scripts/build-dist.js'], { cwd: root, stdio: 'ignore' });
    const run = spawnSync(process.execPath, command(plant), { cwd: root, encoding: 'utf8' });
    const caught = run.status !== 0;
    console.log(`${caught ? 'ok  ' : 'FAIL'} ${plant.bug}: ${caught ? 'caught by' : 'NOT caught by'} ${plant.caught_by.join(', ')}`);
    if (!caught) failed++;
  } finally {
    writeFileSync(path, original);
  }
}
execFileSync(process.execPath, ['scripts/build-dist.js'], { cwd: root, stdio: 'ignore' });
if (failed > 0) {
  console.log(`${failed} plant(s) not caught`);
  process.exit(1);
}
