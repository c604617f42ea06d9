import { createWriteStream } from 'node:fs';
import { once } from 'node:events';

/**
 * Write `count` NDJSON rows of a flat, tool-output-like table. With `changeEvery`, every that many rows
 * a run of rows carries one more key, so a streamed GCF starts a new section there.
 */
export async function writeRowsFile(path: string, count: number, changeEvery = 0): Promise<number> {
  const out = createWriteStream(path);
  let bytes = 0;
  for (let i = 0; i < count; i++) {
    const row: Record<string, unknown> = {
      id: 1_000_000 + i,
      title: `Issue ${i}: cassette ${i % 97} fails on redirect`,
      state: i % 3 === 0 ? 'closed' : 'open',
      author: `user${i % 501}`,
      comments: i % 13,
      score: Math.round((i % 1000) / 7) / 10,
      created_at: new Date(Date.UTC(2024, 0, 1) + i * 60_000).toISOString(),
      draft: i % 5 === 0,
    };
    if (changeEvery > 0 && Math.floor(i / changeEvery) % 2 === 1) row.label = 'bug';
    const line = `${JSON.stringify(row)}\n`;
    bytes += Buffer.byteLength(line);
    if (!out.write(line)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return bytes;
}
