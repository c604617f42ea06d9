// The package as a user gets it: `npm pack` in a clean copy of this working tree (no dist/, no
// manifest: prepack must build them), then `npm i -g` and `npx` of the tarball in a temporary folder
// with --engine-strict, then every command once from the installed binary, offline. Run by .ci/run
// (`npm run test:pack`); about a minute, most of it tsc and npm.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { performance } from 'node:perf_hooks';
import { dirname, join, normalize, posix } from 'node:path';
import { fileURLToPath } from 'node:url';

const repo = fileURLToPath(new URL('..', import.meta.url));
const pkg = JSON.parse(readFileSync(join(repo, 'package.json'), 'utf8'));
const tmp = mkdtempSync(join(tmpdir(), 'devboy-pack-'));
const started = performance.now();
let failures = 0;

// npm settings for every npm call: the engine check is the point; audit, fund and update notices are noise.
const npmEnv = {
  ...process.env,
  npm_config_engine_strict: 'true',
  npm_config_audit: 'false',
  npm_config_fund: 'false',
  npm_config_update_notifier: 'false',
};
// The installed devboy runs as a user's would: no corpus, token or colour settings of the person testing.
const userEnv = Object.fromEntries(
  Object.entries(process.env).filter(([k]) => !/^(DEVBOY_|GITHUB_|GITLAB_|JIRA_|npm_)/.test(k) && k !== 'FORCE_COLOR'),
);
userEnv.NO_COLOR = '1';

function run(cmd, args, { cwd = tmp, env = userEnv, input } = {}) {
  const r = spawnSync(cmd, args, { cwd, env, input: input ?? '', encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

function check(name, ok, detail = '') {
  if (ok) console.log(`ok   ${name}`);
  else {
    failures++;
    console.log(`FAIL ${name}${detail ? `\n     ${detail.trim().split('\n').slice(0, 12).join('\n     ')}` : ''}`);
  }
}

function step(name, fn) {
  const t = performance.now();
  fn();
  console.log(`     (${name}: ${((performance.now() - t) / 1000).toFixed(1)} s)`);
}

try {
  // 1. A clean copy: the files git would give a fresh clone (tracked, plus new ones not ignored), with
  //    this tree's node_modules for the build's compiler.
  const src = join(tmp, 'src');
  step('copy', () => {
    const listed = run('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], { cwd: repo, env: process.env });
    if (listed.code !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
    for (const f of listed.stdout.split('\0').filter(Boolean)) {
      if (!existsSync(join(repo, f))) continue; // deleted in the working tree
      mkdirSync(dirname(join(src, f)), { recursive: true });
      cpSync(join(repo, f), join(src, f));
    }
    symlinkSync(join(repo, 'node_modules'), join(src, 'node_modules'), 'dir');
    check('the copy has no dist/ and no manifest', !existsSync(join(src, 'dist')) && !existsSync(join(src, 'oclif.manifest.json')));
  });

  // 2. npm pack: prepack builds dist/ and the manifest.
  let tarball;
  let files = [];
  step('npm pack', () => {
    const packed = run('npm', ['pack', '--pack-destination', tmp], { cwd: src, env: npmEnv });
    check('npm pack exits 0', packed.code === 0, packed.stderr);
    tarball = readdirSync(tmp).find((f) => f.endsWith('.tgz'));
    if (!tarball) throw new Error('npm pack wrote no tarball');
    check(`tarball named ${pkg.name}-${pkg.version}.tgz`, tarball === `${pkg.name}-${pkg.version}.tgz`, tarball);
    files = run('tar', ['-tzf', join(tmp, tarball)])
      .stdout.split('\n')
      .filter(Boolean)
      .map((f) => f.replace(/^package\//, ''));
  });
  const shipped = new Set(files);
  // Without a manifest (the check below fails on it), the commands are the compiled command files.
  const commandIds = shipped.has('oclif.manifest.json')
    ? Object.keys(JSON.parse(run('tar', ['-xzOf', join(tmp, tarball), 'package/oclif.manifest.json']).stdout).commands).sort()
    : files.filter((f) => /^dist\/commands\/.*\.js$/.test(f)).map((f) => f.slice('dist/commands/'.length, -3));
  const required = ['bin/run.js', 'package.json', 'README.md', 'oclif.manifest.json', 'corpus/MANIFEST.tsv'];
  required.push(...commandIds.map((id) => `dist/commands/${id.replace(/[: ]/g, '/')}.js`));
  for (const f of Object.values(pkg.oclif.hooks ?? {}).concat(pkg.oclif.helpClass ?? [])) required.push(posix.normalize(f));
  const missing = required.filter((f) => !shipped.has(f));
  check(`ships what runs (${commandIds.length} commands, manifest, hooks, corpus)`, missing.length === 0, missing.join(', '));
  const extra = files.filter(
    (f) =>
      (/\.(map|ts|tsbuildinfo)$/.test(f) && !/^dist\/types\/.*\.d\.ts$/.test(f)) ||
      /^(test|bench|src|scripts|results|\.ci|dist\/test|dist\/bench)\//.test(f) ||
      f === 'package-lock.json',
  );
  check(
    'ships nothing else (no maps, sources but the API types, tests, bench, results, lockfile)',
    extra.length === 0,
    extra.slice(0, 10).join(', '),
  );

  // Every relative link in a shipped document leads to a shipped file.
  const broken = [];
  for (const doc of files.filter((f) => f.endsWith('.md'))) {
    const text = run('tar', ['-xzOf', join(tmp, tarball), `package/${doc}`]).stdout;
    for (const m of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      const target = m[1].split('#')[0];
      if (!target || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      // A folder link (`examples/`) resolves to the folder's files.
      const resolved = normalize(join(dirname(doc), decodeURI(target)))
        .replace(/\\/g, '/')
        .replace(/\/$/, '');
      if (!shipped.has(resolved) && !files.some((f) => f.startsWith(`${resolved}/`))) broken.push(`${doc}: ${target}`);
    }
    if (text.includes('../shared')) broken.push(`${doc}: mentions ../shared`);
  }
  check('every relative link in a shipped document resolves inside the package', broken.length === 0, broken.join('\n'));

  // 3. npm i -g into a private prefix, engines enforced.
  const prefix = join(tmp, 'prefix');
  step('npm i -g', () => {
    const installed = run('npm', ['install', '--global', '--prefix', prefix, join(tmp, tarball)], { env: npmEnv });
    check('npm i -g --engine-strict exits 0', installed.code === 0, installed.stderr);
    check('no engine warning', !/EBADENGINE|engine/i.test(installed.stderr), installed.stderr);
  });
  const root = join(prefix, 'lib', 'node_modules', pkg.name);
  // 4. Every command once, from the installed binary, in a folder that is not the clone.
  const devboy = join(prefix, 'bin', pkg.name);
  const work = join(tmp, 'work');
  mkdirSync(work);
  const cli = (args, input) => run(devboy, args, { cwd: work, input });
  const versionLine = new RegExp(`^${pkg.name}/${pkg.version.replace(/\./g, '\\.')} `);
  step('commands', () => {
    for (const flag of ['--version', '-v']) {
      const r = cli([flag]);
      check(`devboy ${flag}`, r.code === 0 && versionLine.test(r.stdout), r.stdout + r.stderr);
    }
    const help = cli(['help']);
    check(
      'devboy help lists every command',
      help.code === 0 && commandIds.every((id) => help.stdout.includes(`  ${id} `)),
      help.stdout + help.stderr,
    );
    check('devboy -h is devboy help', cli(['-h']).stdout === help.stdout);
    // (`devboy help help` is the root help, as in oclif's plugin.)
    for (const id of commandIds.filter((c) => c !== 'help')) {
      const r = cli(['help', id]);
      check(`devboy help ${id}`, r.code === 0 && r.stdout.includes(`$ devboy ${id}`), r.stderr);
    }
    const completion = cli(['autocomplete', 'bash']);
    check(
      'devboy autocomplete bash',
      completion.code === 0 && completion.stdout.includes('complete -o default -F _devboy_complete devboy\n'),
      completion.stderr,
    );
    const typo = cli(['bench']);
    check(
      'devboy bench: exit 2, suggests benchmark',
      typo.code === 2 && typo.stderr === 'devboy: bench is not a devboy command; did you mean benchmark?\n',
      typo.stderr,
    );

    // The benchmark over one project of the embedded corpus, replayed offline through the real clients.
    const out = join(work, 'run.json');
    const bench = cli(['benchmark', '--project', 'artsy__emission', '--runs', '1', '--json', '-o', out]);
    let result;
    try {
      result = JSON.parse(readFileSync(out, 'utf8'));
    } catch {
      result = undefined;
    }
    check(
      'devboy benchmark on the embedded corpus (one project, offline)',
      bench.code === 0 &&
        result?.schema === 'devboy.benchmark/1' &&
        result.source?.corpus === 'embedded' &&
        result.datasets.length > 0 &&
        result.rows.length > 0 &&
        result.rows.every((row) => row.tokens > 0) &&
        JSON.stringify(JSON.parse(bench.stdout)) === JSON.stringify(result),
      bench.stderr,
    );

    const rows = [
      { key: 'gh#1', title: 'first', state: 'open' },
      { key: 'gh#2', title: 'second', state: 'closed' },
    ];
    writeFileSync(join(work, 'rows.json'), JSON.stringify(rows));
    const toon = cli(['convert', 'rows.json', '--to', 'toon', '--verify']);
    check(
      'devboy convert --verify',
      toon.code === 0 && toon.stdout === '[2]{key,title,state}:\n  gh#1,first,open\n  gh#2,second,closed\n',
      toon.stdout + toon.stderr,
    );
    const piped = cli(['convert', '--to', 'json-compact', '--from', 'toon'], toon.stdout);
    check(
      'devboy convert reads piped standard input',
      piped.code === 0 && piped.stdout === `${JSON.stringify(rows)}\n`,
      piped.stdout + piped.stderr,
    );

    const exchange = join(
      root,
      'corpus',
      'github',
      'betamaxpy__betamax',
      '003_GET_repos_betamaxpy_betamax_issues_state_all_per_page_100.json',
    );
    const format = cli(['format', exchange, '--budget', '600', '--json']);
    let meta;
    try {
      meta = JSON.parse(format.stdout).metadata;
    } catch {
      meta = undefined;
    }
    check(
      'devboy format on a corpus exchange',
      format.code === 0 && meta?.estimated_tokens <= 600 && meta.total_items > meta.included_items,
      format.stderr,
    );

    const stats = cli(['stats', exchange, '--runs', '1', '--json']);
    let statsResult;
    try {
      statsResult = JSON.parse(stats.stdout);
    } catch {
      statsResult = undefined;
    }
    check(
      'devboy stats on a corpus exchange recommends a lossless format',
      stats.code === 0 &&
        statsResult?.input?.kind === 'issues' &&
        statsResult.rows.some((r) => r.level === 'raw' && r.format === statsResult.recommendation.format && r.lossless),
      stats.stderr,
    );

    cpSync(join(repo, 'test', 'fixtures', 'sessions', 'claude-code.jsonl'), join(work, 'session.jsonl'));
    const session = cli(['session', 'session.jsonl', '--json']);
    let report;
    try {
      report = JSON.parse(session.stdout);
    } catch {
      report = undefined;
    }
    check('devboy session on a Claude Code transcript', session.code === 0 && report?.calls > 0, session.stderr);

    const record = cli(['record', '--provider', 'github', '--out-dir', join(work, 'rec')]);
    check(
      'devboy record without a repository: exit 2, one line',
      record.code === 2 && /^devboy record: .+\n$/.test(record.stderr),
      record.stderr,
    );
  });

  // 5. devboy as a library: a project that depends on the tarball imports the documented API
  //    (docs/library.md), gets the same answers as the CLI, and type-checks against the shipped types.
  step('import', () => {
    const app = join(tmp, 'app');
    mkdirSync(app);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', private: true, type: 'module' }));
    const installed = run('npm', ['install', join(tmp, tarball)], { cwd: app, env: npmEnv });
    check('npm install ./devboy-*.tgz in a project', installed.code === 0, installed.stderr);
    const exchange = join(
      root,
      'corpus',
      'github',
      'betamaxpy__betamax',
      '003_GET_repos_betamaxpy_betamax_issues_state_all_per_page_100.json',
    );
    const script = [
      "import { buildResponse, countTokens, decode, encode, FORMAT_NAMES, loadFormat, verifyRoundTrip } from 'devboy';",
      "import { readFileSync } from 'node:fs';",
      "const rows = [{ key: 'gh#1', title: 'first', state: 'open' }, { key: 'gh#2', title: 'second', state: 'closed' }];",
      "const toon = await encode(rows, 'toon');",
      'const back = await decode(toon, "toon");',
      'const text = readFileSync(process.argv[2], "utf8");',
      'const body = JSON.parse(text).response.body;',
      'const checks = await Promise.all(FORMAT_NAMES.map(async (f) => [f, verifyRoundTrip(await loadFormat(f), body).lossless]));',
      // The hint devboy format gives (a tool gives its own: how its caller asks for a chunk).
      'const hint = "Run again with `--chunk N` to fetch a specific chunk. You may not need all chunks.";',
      'const response = await buildResponse({ input: { name: "x.json", text }, to: "toon", tokenizer: "o200k_base", budget: 600, hint });',
      'console.log(JSON.stringify({ toon, back, tokens: await countTokens(toon), checks: Object.fromEntries(checks), meta: response.metadata }));',
    ].join('\n');
    writeFileSync(join(app, 'use.mjs'), script);
    const used = run(process.execPath, ['use.mjs', exchange], { cwd: app });
    let out;
    try {
      out = JSON.parse(used.stdout);
    } catch {
      out = undefined;
    }
    const viaCli = run(devboy, ['format', exchange, '--to', 'toon', '--budget', '600', '--json'], { cwd: work });
    const cliMeta = viaCli.code === 0 ? JSON.parse(viaCli.stdout).metadata : undefined;
    const stats = run(devboy, ['convert', '--from', 'toon', '--to', 'toon', '--stats', '--tokenizer', 'o200k_base'], {
      cwd: work,
      input: out?.toon ?? '',
    });
    const cliTokens = Number(/^input\s+\S+\s+[\d,]+ bytes\s+([\d,]+) o200k_base tokens/m.exec(stats.stderr)?.[1]?.replace(/,/g, ''));
    check(
      "import { encode, decode, countTokens, verifyRoundTrip, buildResponse } from 'devboy': the CLI's answers",
      used.code === 0 &&
        out?.toon === '[2]{key,title,state}:\n  gh#1,first,open\n  gh#2,second,closed' &&
        JSON.stringify(out.back) ===
          JSON.stringify([
            { key: 'gh#1', title: 'first', state: 'open' },
            { key: 'gh#2', title: 'second', state: 'closed' },
          ]) &&
        out.tokens === cliTokens &&
        out.checks.json === true &&
        out.checks.stc === true &&
        JSON.stringify(out.meta) === JSON.stringify(cliMeta),
      `${used.stdout}${used.stderr}\ncli tokens ${cliTokens}: ${stats.stderr}`,
    );
    writeFileSync(
      join(app, 'typed.ts'),
      [
        "import { countTokens, encode, type FormatMetadata, type FormatName } from 'devboy';",
        "const format: FormatName = 'stc';",
        'export const text: Promise<string> = encode({ a: 1 }, format);',
        'export const tokens: Promise<number> = countTokens("x", "o200k_base");',
        'export type Saving = FormatMetadata["combined_savings_pct"];',
      ].join('\n'),
    );
    writeFileSync(join(app, 'wrong.ts'), "import { encode } from 'devboy';\nexport const t = encode({ a: 1 }, 'yaml-ish');\n");
    const tsc = (file) =>
      run(
        process.execPath,
        [
          join(repo, 'node_modules', 'typescript', 'bin', 'tsc'),
          '--noEmit',
          '--strict',
          '--module',
          'nodenext',
          '--moduleResolution',
          'nodenext',
          '--target',
          'es2022',
          '--skipLibCheck',
          file,
        ],
        { cwd: app },
      );
    const typed = tsc('typed.ts');
    check('the shipped types check a use of the API', typed.code === 0, typed.stdout + typed.stderr);
    const wrong = tsc('wrong.ts');
    check('the shipped types refuse a format name that does not exist', wrong.code !== 0 && /yaml-ish/.test(wrong.stdout), wrong.stdout);
  });

  // 6. npx of the same tarball: installs into npm's npx cache, which is cleaned up afterwards.
  step('npx', () => {
    const cache = run('npm', ['config', 'get', 'cache'], { env: npmEnv }).stdout.trim();
    const npxDir = join(cache, '_npx');
    const before = new Set(existsSync(npxDir) ? readdirSync(npxDir) : []);
    try {
      const r = run('npx', ['--yes', `./${tarball}`, '--version'], { env: { ...npmEnv, ...userEnv, npm_config_engine_strict: 'true' } });
      check('npx ./devboy-*.tgz --version', r.code === 0 && versionLine.test(r.stdout), r.stdout + r.stderr);
      check('npx: no engine warning', !/EBADENGINE|engine/i.test(r.stderr), r.stderr);
    } finally {
      for (const d of existsSync(npxDir) ? readdirSync(npxDir) : [])
        if (!before.has(d)) rmSync(join(npxDir, d), { recursive: true, force: true });
    }
  });
} catch (err) {
  failures++;
  console.log(`FAIL ${err instanceof Error ? err.message : String(err)}`);
} finally {
  rmSync(tmp, { recursive: true, force: true });
}

console.log(`pack test: ${failures === 0 ? 'passed' : `${failures} failed`} in ${((performance.now() - started) / 1000).toFixed(0)} s`);
process.exit(failures === 0 ? 0 : 1);
