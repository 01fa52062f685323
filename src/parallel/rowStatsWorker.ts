// Worker thread of rowStatsParallel: computes the row statistics of its row range of a shared matrix and writes them
// into the shared result arrays. Plain data in, plain data out; the kernel is the core's.
import { parentPort } from 'node:worker_threads';
import { computeRowStats } from '../kernels/rowStats.js';
import type { RowStatsMode } from '../kernels/rowStatsTypes.js';
import type { SharedStats, StatsTask } from './sharedStats.js';
import { viewsOf } from './sharedStats.js';

parentPort?.on('message', (task: StatsTask) => {
  try {
    runTask(task);
    parentPort?.postMessage({ ok: true });
  } catch (e) {
    parentPort?.postMessage({ ok: false, message: e instanceof Error ? e.message : String(e) });
  }
});

function runTask(task: StatsTask): void {
  const { start, end } = task;
  const data = task.f32
    ? new Float32Array(task.data, task.byteOffset, task.n * task.c)
    : new Float64Array(task.data, task.byteOffset, task.n * task.c);
  const stats = computeRowStats(
    data.subarray(start * task.c, end * task.c),
    end - start,
    task.c,
    task.mode as RowStatsMode,
  );
  writeStats(viewsOf(task.out, task.n), stats, start);
}

/** Copies one range's statistics into the shared arrays at row `start`. */
export function writeStats(out: SharedStats, stats: ReturnType<typeof computeRowStats>, start: number): void {
  out.max.set(stats.max, start);
  out.arg.set(stats.arg, start);
  out.min.set(stats.min, start);
  out.sum.set(stats.sum, start);
  if (stats.sumSq !== undefined) out.sumSq.set(stats.sumSq, start);
  if (stats.xlogx !== undefined) out.xlogx.set(stats.xlogx, start);
}
