import { checkCount } from '../errors/checkCount.js';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { computeRowStats } from '../kernels/rowStats.js';
import { rowStatsResult } from '../kernels/rowStatsResult.js';
import type { RowStats, RowStatsMode } from '../kernels/rowStatsTypes.js';
import { statsBytes, viewsOf, type StatsTask } from './sharedStats.js';
import { writeStats } from './rowStatsWorker.js';

/** Persistent workers (unref'd, so they never keep the process alive), created on first use. */
const pool: Worker[] = [];

function worker(k: number): Worker {
  let w = pool[k];
  if (w === undefined) {
    w = new Worker(new URL('./rowStatsWorker.js', import.meta.url));
    w.unref();
    pool[k] = w;
  }
  return w;
}

function run(w: Worker, task: StatsTask): Promise<void> {
  return new Promise((resolve, reject) => {
    const onMessage = (reply: { ok: boolean; message?: string }) => {
      w.off('error', onError);
      if (reply.ok) resolve();
      else reject(new Error(reply.message));
    };
    const onError = (e: Error) => {
      w.off('message', onMessage);
      pool.splice(pool.indexOf(w), 1);
      reject(e);
    };
    w.once('message', onMessage);
    w.once('error', onError);
    w.postMessage(task);
  });
}

/** Resolves the `threads` option: a whole number ≥ 1, default every core the process may use. */
export function threadCount(fn: string, threads: unknown): number {
  if (threads === undefined) return availableParallelism();
  return checkCount(fn, 'options.threads', threads, {
    max: 1024,
    why: 'each thread is a worker with its own JavaScript heap',
  });
}

/**
 * The fused row pass over `threads` threads: the rows are split into equal ranges, this thread takes the first and
 * workers the others, all reading one SharedArrayBuffer (the input's own, or one copy of it) and writing into shared
 * result arrays. Each row's statistics are exactly those of the one-thread pass. Internal.
 */
export async function rowStatsParallel(
  data: Float32Array | Float64Array,
  n: number,
  c: number,
  mode: RowStatsMode,
  threads: number,
): Promise<RowStats> {
  const parts = Math.max(1, Math.min(threads, Math.floor(n / 1024) || 1));
  if (parts === 1) return computeRowStats(data, n, c, mode);
  let shared: Float32Array | Float64Array = data;
  if (!(data.buffer instanceof SharedArrayBuffer)) {
    const sab = new SharedArrayBuffer(data.byteLength);
    shared = data instanceof Float32Array ? new Float32Array(sab) : new Float64Array(sab);
    shared.set(data);
  }
  const out = new SharedArrayBuffer(statsBytes(n));
  const views = viewsOf(out, n);
  const bounds = Array.from({ length: parts + 1 }, (_, k) => Math.round((k * n) / parts));
  const tasks: Promise<void>[] = [];
  for (let k = 1; k < parts; k++) {
    const task: StatsTask = {
      data: shared.buffer as SharedArrayBuffer,
      byteOffset: shared.byteOffset,
      f32: shared instanceof Float32Array,
      n,
      c,
      start: bounds[k] as number,
      end: bounds[k + 1] as number,
      mode,
      out,
    };
    tasks.push(run(worker(k - 1), task));
  }
  const end = bounds[1] as number;
  const own = computeRowStats(shared.subarray(0, end * c), end, c, mode);
  writeStats(views, own, 0);
  await Promise.all(tasks);
  return rowStatsResult(
    mode,
    { ...views, sumSq: mode >= 1 ? views.sumSq : undefined, xlogx: mode === 2 ? views.xlogx : undefined },
    own.sumSlack,
  );
}
