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

/** One worker for every load of a test file: each would otherwise load the client libraries again. */
let worker: Worker | undefined;
let serial = 0;
const pending = new Map<number, { resolve: (load: SmallStackLoad) => void; reject: (err: Error) => void }>();

function failAll(err: Error): void {
  for (const { reject } of pending.values()) reject(err);
  pending.clear();
  worker = undefined;
}

export function firstDatasetSizeOnSmallStack(options: LiveLoadOptions, items: number): Promise<SmallStackLoad> {
  if (!worker) {
    worker = new Worker(new URL(import.meta.url), { workerData: { smallStack: true }, resourceLimits: { stackSizeMb: STACK_MB } });
    worker.on('message', ({ id, load }: { id: number; load: SmallStackLoad }) => {
      pending.get(id)?.resolve(load);
      pending.delete(id);
    });
    worker.on('error', failAll);
    worker.on('exit', (code) => failAll(new Error(`the small-stack worker exited (${code})`)));
    // Waiting on it must not keep a process alive whose tests are done.
    worker.unref();
  }
  const id = ++serial;
  const answer = new Promise<SmallStackLoad>((resolve, reject) => pending.set(id, { resolve, reject }));
  worker.postMessage({ id, job: { options, items } satisfies Job });
  return answer;
}

/** Ends the worker (a test file's after hook). */
export async function stopSmallStack(): Promise<void> {
  const w = worker;
  worker = undefined;
  await w?.terminate();
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

if (!isMainThread && (workerData as { smallStack?: boolean } | null)?.smallStack) {
  parentPort!.on('message', ({ id, job }: { id: number; job: Job }) => {
    void work(job).then((load) => parentPort!.postMessage({ id, load }));
  });
}
