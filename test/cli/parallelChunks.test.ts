import { describe, expect, it } from 'vitest';
import { UMError } from '../../src/errors/UMError.js';
import { workerError } from '../../src/cli/parallelChunks.js';
import type { ChunkTask } from '../../src/cli/chunkState.js';

describe('workerError', () => {
  const task: ChunkTask = {
    command: 'um metrics',
    path: 'big.csv',
    read: {},
    chunk: { kind: 'csv', range: { start: 100, end: 200, header: ['label'], firstLine: 1048578, firstRow: 1048576 } },
    states: {},
    input: {},
  };

  it('reports a worker that ran out of heap as UM_MEMORY naming the file, chunk and remedies', () => {
    const oom = Object.assign(new Error('Worker terminated due to reaching memory limit: JS heap out of memory'), {
      code: 'ERR_WORKER_OUT_OF_MEMORY',
    });
    const e = workerError(oom, task);
    expect(e).toBeInstanceOf(UMError);
    expect((e as UMError).code).toBe('UM_MEMORY');
    expect(e.message).toBe(
      'um metrics: big.csv: a worker thread ran out of memory reducing a chunk (from line 1048578); give --threads 1, a smaller --chunk-rows, or --bounded',
    );
    expect(workerError(oom, { ...task, chunk: { kind: 'npy', rows: [10, 20] } }).message).toContain('(rows 10–19)');
  });

  it('passes any other crash on unchanged', () => {
    const other = new Error('boom');
    expect(workerError(other, task)).toBe(other);
  });
});
