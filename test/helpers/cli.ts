import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { REPO_ROOT } from './paths.js';

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Run the built `devboy` binary as a user would, in a subprocess. */
export function runCli(
  args: string[],
  options: { input?: string | Buffer; cwd?: string; env?: NodeJS.ProcessEnv } = {},
): Promise<CliResult> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(process.execPath, [resolve(REPO_ROOT, 'bin', 'run.js'), ...args], {
      cwd: options.cwd ?? REPO_ROOT,
      // A DEVBOY_CORPUS of the person running the tests must not change what the tests read.
      env: { ...withoutCorpus(process.env), NO_COLOR: '1', ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolvePromise({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

function withoutCorpus(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DEVBOY_CORPUS: _ignored, ...rest } = env;
  return rest;
}
