/**
 * Where commands write. The process's own streams, except while a test runs a command in-process
 * (test/helpers/cli.ts): then each run gets its own, so a test reads exactly what one run wrote.
 */
export interface CommandStreams {
  stdout: { write(text: string, done: (err?: Error | null) => void): unknown };
  stderr: { write(text: string): unknown };
}

let current: CommandStreams | undefined;

export function commandStreams(): CommandStreams {
  return current ?? { stdout: process.stdout, stderr: process.stderr };
}

export async function withCommandStreams<T>(streams: CommandStreams, run: () => Promise<T>): Promise<T> {
  const previous = current;
  current = streams;
  try {
    return await run();
  } finally {
    current = previous;
  }
}
