// A worker thread of `um metrics --stream`: reduces the chunks it is sent to states (see chunkState.ts).
import { parentPort } from 'node:worker_threads';
import { UMError } from '../errors/UMError.js';
import { chunkState, type ChunkTask } from './chunkState.js';

/**
 * The memory of every typed array in a chunk's result, moved to the main thread instead of copied (a chunk of 2^20
 * rows of 10 classes posts ~37 MB: its kept entries and class histograms). Safe because a result's arrays are its own
 * (the stores' typed forms are copies, pass 2's are made per chunk) and this thread never reads them again.
 */
export function transferList(value: unknown): ArrayBuffer[] {
  const out = new Set<ArrayBuffer>();
  const visit = (v: unknown): void => {
    if (ArrayBuffer.isView(v)) {
      if (v.buffer instanceof ArrayBuffer) out.add(v.buffer);
    } else if (v !== null && typeof v === 'object') for (const x of Object.values(v as object)) visit(x);
  };
  visit(value);
  return [...out];
}

parentPort?.on('message', (task: ChunkTask) => {
  chunkState(task).then(
    (result) => parentPort?.postMessage({ ok: true, result }, transferList(result)),
    (error: unknown) =>
      parentPort?.postMessage(
        error instanceof UMError
          ? { ok: false, code: error.code, message: error.message }
          : { ok: false, crash: error instanceof Error ? (error.stack ?? error.message) : String(error) },
      ),
  );
});
