import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';
import { REPO_ROOT } from './paths.js';

export interface CliResult {
  code: number | null;
  /** The signal that ended the process, when one did. */
  signal?: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  input?: string;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Run as this user and group (tests running as root use it to meet permission checks). */
  uid?: number;
  gid?: number;
}

/** Run the built `devboy` binary as a user would, in a subprocess. */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const { child, done } = spawnCli(args, options);
  child.stdin.end(options.input ?? '');
  return done;
}

/**
 * Start `devboy` and hand back the process, for tests that feed standard input piece by piece or
 * send signals; `done` resolves when it ends. Standard input stays open until the caller ends it.
 */
export function spawnCli(args: string[], options: CliOptions = {}): { child: ChildProcessWithoutNullStreams; done: Promise<CliResult> } {
  const child = spawn(process.execPath, [resolve(REPO_ROOT, 'bin', 'run.js'), ...args], {
    cwd: options.cwd ?? REPO_ROOT,
    // A DEVBOY_CORPUS of the person running the tests must not change what the tests read.
    env: { ...withoutCorpus(process.env), NO_COLOR: '1', ...options.env },
    stdio: ['pipe', 'pipe', 'pipe'],
    ...(options.uid !== undefined ? { uid: options.uid } : {}),
    ...(options.gid !== undefined ? { gid: options.gid } : {}),
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  // A child that exits before reading all its input must not fail the test with EPIPE.
  child.stdin.on('error', () => {});
  const done = new Promise<CliResult>((resolvePromise, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => resolvePromise({ code, signal, stdout, stderr }));
  });
  return { child, done };
}

function withoutCorpus(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const { DEVBOY_CORPUS: _ignored, ...rest } = env;
  return rest;
}
