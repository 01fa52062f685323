import { Worker } from 'node:worker_threads';
import { UMError, type UMErrorCode } from '../errors/UMError.js';
import { chunkState, type ChunkResult, type ChunkTask } from './chunkState.js';

/**
 * Heap limits of a worker: a small young generation makes V8 collect each batch's garbage early, which keeps the
 * process under 300 MB with two workers on a 10-class file (measured in `npm run bench`).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 };

type Reply = { ok: true; result: ChunkResult } | { ok: false; code: UMErrorCode; message: string } | { ok: false; crash: string };

/**
 * Reduces every chunk to its state, on `threads` worker threads (or in this thread when 1), and hands the results to
 * `consume` in chunk order as soon as they can be (so finished chunks are not all held at once). The first error
 * stops the others.
 */
export async function reduceChunks(tasks: ChunkTask[], threads: number, consume: (result: ChunkResult) => void): Promise<void> {
  if (threads <= 1 || tasks.length <= 1) {
    for (const t of tasks) consume(await chunkState(t));
    return;
  }
  const pending = new Map<number, ChunkResult>();
  let done = 0;
  const arrived = (k: number, r: ChunkResult) => {
    pending.set(k, r);
    while (pending.has(done)) {
      consume(pending.get(done) as ChunkResult);
      pending.delete(done++);
    }
  };
  let next = 0;
  const workers = Array.from({ length: Math.min(threads, tasks.length) }, () => new Worker(new URL('./streamWorker.js', import.meta.url), { resourceLimits: WORKER_LIMITS }));
  try {
    await Promise.all(
      workers.map(
        (w) =>
          new Promise<void>((resolve, reject) => {
            const send = () => {
              if (next >= tasks.length) return resolve();
              const k = next++;
              w.once('message', (reply: Reply) => {
                if (reply.ok) {
                  arrived(k, reply.result);
                  send();
                } else if ('code' in reply) reject(new UMError(reply.code, reply.message, { fn: tasks[k]?.command ?? 'um' }));
                else reject(new Error(reply.crash));
              });
              w.postMessage(tasks[k]);
            };
            w.once('error', reject);
            send();
          }),
      ),
    );
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
