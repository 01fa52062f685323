import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UMError } from '../../src/errors/UMError.js';
import { workerError, type ChunkWorkers as SourceChunkWorkers } from '../../src/cli/parallelChunks.js';
import { chunkState, type ChunkResult, type ChunkTask } from '../../src/cli/chunkState.js';
import { planChunks } from '../../src/io/planChunks.js';

// workers start from the built JavaScript (dist/cli/streamWorker.js), so the pool runs from dist; its types are the
// sources' (the package ships no declarations of internal modules)
const { ChunkWorkers } = (await import(
  new URL('../../packages/core/dist/cli/parallelChunks.js', import.meta.url).href
)) as { ChunkWorkers: typeof SourceChunkWorkers };

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

describe('ChunkWorkers', () => {
  it('keeps its workers from one pass to the next, and gives each pass the results of reducing in this thread', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'um-pool-'));
    try {
      const path = join(dir, 'p.csv');
      const rows = Array.from(
        { length: 120 },
        (_, i) => `${i % 3},${[0.2, 0.3, 0.5].map((p, k) => (k === i % 3 ? 0.6 : 0.2)).join(',')}`,
      );
      writeFileSync(path, `label,p_0,p_1,p_2\n${rows.join('\n')}\n`);
      const chunks = await planChunks(path, {}, 30);
      expect(chunks.length).toBe(4);
      const tasks: ChunkTask[] = chunks.map((chunk) => ({
        command: 'um metrics',
        path,
        read: {},
        chunk,
        states: { evaluate: { metric: 'evaluate', options: { mode: 'exact' } } },
        input: {},
      }));
      const alone: ChunkResult[] = [];
      for (const t of tasks) alone.push(await chunkState(t));
      const pool = new ChunkWorkers(2);
      try {
        for (let pass = 1; pass <= 3; pass++) {
          const got: ChunkResult[] = [];
          await pool.reduce(tasks, (r) => got.push(r));
          expect(
            got.map((r) => r.states),
            `pass ${pass}`,
          ).toEqual(alone.map((r) => r.states));
          // two workers started for the first pass, none after (a pass used to start its own)
          expect(pool.started, `pass ${pass}`).toBe(2);
        }
        // an error of `consume` (the merge) is the pass's error (not an uncaught exception), and ends the pool
        let consumed = 0;
        await expect(
          pool.reduce(tasks, () => {
            if (++consumed === 2) throw new UMError('UM_OPTION', 'um metrics: chunks disagree', { fn: 'um metrics' });
          }),
        ).rejects.toThrow('um metrics: chunks disagree');
        expect((pool as unknown as { workers: unknown[] }).workers).toEqual([]);
        await pool.reduce(tasks, () => undefined);
        // an error a worker raises between passes is the next pass's error (not an uncaught exception), and ends the pool
        const idle = (pool as unknown as { workers: { emit(e: string, x: Error): void }[] }).workers[1];
        idle?.emit('error', new Error('idle worker failed'));
        await expect(pool.reduce(tasks, () => undefined)).rejects.toThrow('idle worker failed');
        expect((pool as unknown as { workers: unknown[] }).workers).toEqual([]);
      } finally {
        await pool.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
