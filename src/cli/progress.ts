/**
 * A one-line progress bar on stderr, only when stderr is a terminal (never in CI logs or pipes).
 */
export class ProgressBar {
  private last = 0;
  private readonly enabled: boolean;

  constructor(private readonly stream: NodeJS.WriteStream = process.stderr) {
    this.enabled = Boolean(stream.isTTY) && !process.env.CI;
  }

  update(done: number, total: number, what: string): void {
    if (!this.enabled) return;
    const now = Date.now();
    if (now - this.last < 80 && done < total) return;
    this.last = now;
    const width = 24;
    const filled = total === 0 ? width : Math.round((done / total) * width);
    const cols = this.stream.columns ?? 80;
    const line = `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done}/${total} ${what}`;
    this.stream.write(`\r${line.slice(0, cols - 1).padEnd(cols - 1)}`);
  }

  done(): void {
    if (this.enabled) this.stream.write(`\r${' '.repeat((this.stream.columns ?? 80) - 1)}\r`);
  }
}
