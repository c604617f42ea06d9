import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { resolve } from 'node:path';
import { PassThrough } from 'node:stream';
import { Config, Errors } from '../../src/cli/oclif.js';
import { withCommandStreams } from '../../src/cli/streams.js';
import { REPO_ROOT } from './paths.js';

export interface CliResult {
  code: number | null;
  /** The signal that ended the process, when one did (subprocess runs). */
  signal?: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
}

export interface CliOptions {
  /** Standard input; a run with input is always a subprocess. */
  input?: string | Buffer;
  cwd?: string;
  /** Variables to set; `undefined` removes one. */
  env?: NodeJS.ProcessEnv;
  /** A real process: for signals, standard input, file descriptors, help output and start-up itself. */
  subprocess?: boolean;
  /** Standard output as a terminal of this many columns (in-process runs only). */
  terminal?: { columns: number };
  /** Run as this user and group (tests running as root use it to meet permission checks); a subprocess. */
  uid?: number;
  gid?: number;
}

/**
 * Run `devboy` as a user would. In-process by default (the same command classes, flag parsing,
 * error handling and exit codes, without paying Node's and oclif's start-up per call); in a
 * subprocess when the test needs a process: standard input, another user, signals, `--help`.
 */
export function runCli(args: string[], options: CliOptions = {}): Promise<CliResult> {
  const needsProcess = options.subprocess || options.input !== undefined || options.uid !== undefined;
  return needsProcess ? runCliProcess(args, options) : runCliInProcess(args, options);
}

let config: Promise<Config> | undefined;
let queue: Promise<unknown> = Promise.resolve();

/** One command at a time: runs share the process's environment, working folder and exit code. */
function runCliInProcess(args: string[], options: CliOptions): Promise<CliResult> {
  const run = queue.then(() => runNow(args, options));
  queue = run.catch(() => undefined);
  return run;
}

async function runNow(args: string[], options: CliOptions): Promise<CliResult> {
  config ??= Config.load(REPO_ROOT);
  const loaded = await config;
  let stdout = '';
  let stderr = '';
  const savedEnv = applyEnv({ DEVBOY_CORPUS: undefined, NO_COLOR: '1', ...options.env });
  const savedCwd = process.cwd();
  const savedExit = process.exitCode;
  process.exitCode = undefined;
  if (options.cwd) process.chdir(options.cwd);
  let code: number;
  try {
    await withCommandStreams(
      {
        stdout: {
          write: (text, done) => ((stdout += text), done(), true),
          ...(options.terminal ? { isTTY: true, columns: options.terminal.columns } : {}),
        },
        stderr: { write: (text) => (stderr += text) },
      },
      () => loaded.runCommand(args[0]!, args.slice(1)),
    );
    code = typeof process.exitCode === 'number' ? process.exitCode : 0;
  } catch (err) {
    if (!(err instanceof Errors.ExitError)) throw err;
    code = err.oclif.exit ?? 1;
  } finally {
    process.chdir(savedCwd);
    process.exitCode = savedExit;
    applyEnv(savedEnv);
  }
  return { code, stdout, stderr };
}

/**
 * Run `devboy` in-process with `input` as its standard input (a stream that is not a terminal, as
 * a pipe is not), for tests whose claim is about what is read and written, not about the pipe:
 * reading a real pipe, its end and its errors is runCliProcess's (runCli with `input`). Not for
 * --stream: a streamed conversion writes to the process's own standard output, which this does not catch.
 */
export function runCliWithStdin(
  args: string[],
  input: string | Buffer,
  options: Omit<CliOptions, 'input' | 'subprocess' | 'uid' | 'gid'> = {},
): Promise<CliResult> {
  const run = queue.then(async () => {
    const stdin = Object.getOwnPropertyDescriptor(process, 'stdin')!;
    const stream = new PassThrough();
    stream.end(typeof input === 'string' ? Buffer.from(input) : input);
    Object.defineProperty(process, 'stdin', { value: stream, configurable: true, enumerable: true, writable: true });
    try {
      return await runNow(args, options);
    } finally {
      Object.defineProperty(process, 'stdin', stdin);
    }
  });
  queue = run.catch(() => undefined);
  return run;
}

/** Set (or, for undefined, remove) variables; returns what restores them. */
function applyEnv(vars: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const before: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(vars)) {
    before[k] = process.env[k];
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  return before;
}

/** Run the built `devboy` binary in a subprocess. */
export function runCliProcess(args: string[], options: CliOptions = {}): Promise<CliResult> {
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
    env: withoutUndefined({ ...process.env, DEVBOY_CORPUS: undefined, NO_COLOR: '1', ...options.env }),
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

function withoutUndefined(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined));
}
