import { Worker } from 'node:worker_threads';
import { UMError, type UMErrorCode } from '../errors/UMError.js';
import { chunkState, type ChunkResult, type ChunkTask } from './chunkState.js';

/**
 * Heap limits of a worker: a small young generation makes V8 collect each batch's garbage early, which keeps the
 * process under 300 MB with two workers on a 10-class file (measured in `npm run bench`).
 */
const WORKER_LIMITS = { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 256 };

type Reply =
  { ok: true; result: ChunkResult } | { ok: false; code: UMErrorCode; message: string } | { ok: false; crash: string };

/** Where a chunk lies in its file, for messages. */
function describeChunk(t: ChunkTask): string {
  const c = t.chunk;
  if (c.kind === 'csv') return `from line ${c.range.firstLine}`;
  if (c.kind === 'whole') return 'the whole file';
  return `rows ${c.rows[0]}–${c.rows[1] - 1}`;
}

/**
 * What a worker's crash is reported as: running out of its heap is `UM_MEMORY` naming the file, the chunk and what
 * to change (not an internal error); anything else is passed on as it is.
 */
export function workerError(error: Error & { code?: string }, task: ChunkTask | undefined): Error {
  if (error.code !== 'ERR_WORKER_OUT_OF_MEMORY') return error;
  const command = task?.command ?? 'um';
  const where = task === undefined ? '' : ` (${describeChunk(task)})`;
  return new UMError(
    'UM_MEMORY',
    `${command}: ${task?.path ?? 'the file'}: a worker thread ran out of memory reducing a chunk${where}; give --threads 1, a smaller --chunk-rows, or --bounded`,
    { fn: command, argument: '--threads' },
  );
}

/**
 * Worker threads that reduce chunks, kept from one pass over a file to the next: a two-pass read on two threads
 * started four workers, each loading the library again (~0.1 s of CPU from the bundle, ~0.3 s from the core's
 * modules). Started when first needed; {@link close} ends them (after an error, the pool has already ended them).
 */
export class ChunkWorkers {
  private workers: Worker[] = [];
  /** Workers started so far (what the pool saves is visible to its test). */
  started = 0;

  /** An error a worker raised while idle between passes (reported by the next {@link reduce}). */
  private idleError: Error | undefined;

  constructor(private readonly threads: number) {}

  /**
   * Reduces every chunk to its state, on the pool's threads (or in this thread when 1), and hands the results to
   * `consume` in chunk order as soon as they can be (so finished chunks are not all held at once). The first error
   * stops the others.
   */
  async reduce(tasks: ChunkTask[], consume: (result: ChunkResult) => void): Promise<void> {
    if (this.threads <= 1 || tasks.length <= 1) {
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
    const count = Math.min(this.threads, tasks.length);
    for (; this.workers.length < count; this.started++) {
      const w = new Worker(new URL('./streamWorker.js', import.meta.url), { resourceLimits: WORKER_LIMITS });
      // a worker's error between passes (no reduce listening) is kept for the next pass, never an uncaught exception
      w.on('error', (error: Error) => (this.idleError ??= error));
      this.workers.push(w);
    }
    if (this.idleError !== undefined) {
      const error = workerError(this.idleError, tasks[0]);
      await this.close();
      throw error;
    }
    let next = 0;
    try {
      await Promise.all(
        this.workers.slice(0, count).map(
          (w) =>
            new Promise<void>((resolve, reject) => {
              let current = -1; // the task this worker is reducing
              const onError = (error: Error) => reject(workerError(error, tasks[current]));
              const send = () => {
                if (next >= tasks.length) {
                  // idle, with no reply awaited: ready for the next pass
                  w.off('error', onError);
                  return resolve();
                }
                const k = next++;
                current = k;
                w.once('message', (reply: Reply) => {
                  if (reply.ok) {
                    // `consume` (the merge) may throw: the pass fails with its error, as for a worker's (thrown in
                    // this listener, it was an uncaught exception)
                    try {
                      arrived(k, reply.result);
                    } catch (error) {
                      reject(error instanceof Error ? error : new Error(String(error)));
                      return;
                    }
                    send();
                  } else if ('code' in reply)
                    reject(new UMError(reply.code, reply.message, { fn: tasks[k]?.command ?? 'um' }));
                  else reject(new Error(reply.crash));
                });
                w.postMessage(tasks[k]);
              };
              w.on('error', onError);
              send();
            }),
        ),
      );
    } catch (error) {
      // the other workers may still be reducing: they end with the pool
      await this.close();
      throw error;
    }
  }

  /** Ends every worker. */
  async close(): Promise<void> {
    const workers = this.workers;
    this.workers = [];
    this.idleError = undefined;
    await Promise.all(workers.map((w) => w.terminate()));
  }
}
