/**
 * Where commands write. The process's own streams, except while a test runs a command in-process
 * (test/helpers/cli.ts): then each run gets its own, so a test reads exactly what one run wrote.
 */
export interface CommandStreams {
  /** `isTTY` and `columns` as a terminal's stream has them: reports fit its width, JSON is not dumped on it. */
  stdout: { write(text: string, done: (err?: Error | null) => void): unknown; isTTY?: boolean; columns?: number };
  stderr: { write(text: string): unknown; isTTY?: boolean; columns?: number };
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

/** The terminal's width when standard output is one (tables fold to fit it), else undefined (reports use 100). */
export function terminalColumns(): number | undefined {
  const out = commandStreams().stdout;
  return out.isTTY && typeof out.columns === 'number' && out.columns > 0 ? out.columns : undefined;
}

/** Whether standard output is a terminal. */
export function stdoutIsTerminal(): boolean {
  return Boolean(commandStreams().stdout.isTTY);
}

/** Tables fit the terminal's width when standard output is one; elsewhere the reports' default, 100 columns. */
export function widthOption(): { width?: number } {
  const columns = terminalColumns();
  return columns ? { width: columns } : {};
}

/** The same for reports written to standard error (convert --stats, the proxy's summary): its own terminal's width, else 100. */
export function stderrWidthOption(): { width?: number } {
  const err = commandStreams().stderr;
  return err.isTTY && typeof err.columns === 'number' && err.columns > 0 ? { width: err.columns } : {};
}
