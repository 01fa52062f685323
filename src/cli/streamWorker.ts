// A worker thread of `um metrics --stream`: reduces the chunks it is sent to states (see chunkState.ts).
import { parentPort } from 'node:worker_threads';
import { UMError } from '../errors/UMError.js';
import { chunkState, type ChunkTask } from './chunkState.js';
import { transferList } from './transferList.js';

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
