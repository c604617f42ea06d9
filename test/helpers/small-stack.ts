import { isMainThread, parentPort, Worker, workerData } from 'node:worker_threads';
import type { LiveLoadOptions } from '../../src/providers/load.js';

/**
 * loadLiveDatasets in a worker thread whose stack is half a megabyte. Spreading an array into one
 * call's arguments puts every item on the stack: on the main thread's stack that overflows at about
 * 125,000 items, on this one at about 35,000. A list a little over that shows the same thing as one
 * over the main thread's limit, with a quarter of the items to build, parse and map.
 */
const STACK_MB = 0.5;

interface Job {
  options: LiveLoadOptions;
  items: number;
}

/** What the worker found: whether `items` arguments overflow its stack, and the load's first dataset's size or error. */
export interface SmallStackLoad {
  spreadOverflows: boolean;
  size?: number;
  error?: { dataError: boolean; message: string };
}

export async function firstDatasetSizeOnSmallStack(options: LiveLoadOptions, items: number): Promise<SmallStackLoad> {
  const worker = new Worker(new URL(import.meta.url), {
    workerData: { job: { options, items } satisfies Job },
    resourceLimits: { stackSizeMb: STACK_MB },
  });
  try {
    return await new Promise<SmallStackLoad>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
      worker.once('exit', (code) => reject(new Error(`the small-stack worker exited (${code}) without an answer`)));
    });
  } finally {
    await worker.terminate();
  }
}

async function work({ options, items }: Job): Promise<SmallStackLoad> {
  const { DataError } = await import('../../src/errors.js');
  const { loadLiveDatasets } = await import('../../src/providers/load.js');
  let spreadOverflows = false;
  try {
    [].push(...new Array<never>(items));
  } catch (err) {
    spreadOverflows = err instanceof RangeError;
  }
  try {
    const datasets = await loadLiveDatasets(options);
    return { spreadOverflows, size: datasets[0]!.result.items.length };
  } catch (err) {
    return { spreadOverflows, error: { dataError: err instanceof DataError, message: String(err) } };
  }
}

if (!isMainThread && (workerData as { job?: Job } | null)?.job) {
  parentPort!.postMessage(await work((workerData as { job: Job }).job));
}
