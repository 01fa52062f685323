/**
 * streamParquet reads the wanted columns chunk by chunk (hyparquet's onChunk) and decodes each row group once. The
 * reference here is independent of that: hyparquet's row objects (parquetReadObjects) of the whole file, converted
 * row by row. Seeded files vary the row-group size, the batch size, the row range (a stream worker's chunk), list or
 * numbered columns, INT32 / INT64 labels, weights and extra columns; files with a null are checked to name the first
 * bad entry in row order.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { asyncBufferFromFile, parquetReadObjects } from 'hyparquet';
import { parquetWriteBuffer } from 'hyparquet-writer';
import { afterAll, describe, expect, it } from 'vitest';
import type { PredictionBatch } from '../../src/io/batches.js';
import { streamParquet } from '../../src/io/readParquet.js';
import { checkRead } from '../../src/io/readSpec.js';
import { UMError } from '../../src/errors/UMError.js';
import { mulberry32 } from '../helpers/mulberry32.js';

const dir = mkdtempSync(join(tmpdir(), 'um-parquet-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Case {
  path: string;
  n: number;
  c: number;
  list: boolean;
  weights: boolean;
  /** Rows per row group (the last may hold fewer). */
  rowGroupSize: number;
  /** The row and column of the first null score in row order, when one was planted. */
  hole?: { row: number; k: number };
}

function makeFile(seed: number): Case {
  const rnd = mulberry32(seed);
  const int = (k: number) => Math.floor(rnd() * k);
  const n = 1 + int(300);
  const c = 1 + int(6);
  const list = rnd() < 0.3;
  const weights = rnd() < 0.4;
  const big = rnd() < 0.5;
  // ties, zeros, ones and tiny values among the scores (the reader must not touch them)
  const score = () => [0, 1, 0.5, 1e-300, rnd()][int(5)] as number;
  const scores = Array.from({ length: n }, () => Array.from({ length: c }, score));
  let hole: Case['hole'];
  if (!list && rnd() < 0.3) {
    // two nulls: the reader must report the first in row order, whatever the column order
    const a = { row: int(n), k: int(c) };
    const b = { row: int(n), k: int(c) };
    for (const h of [a, b]) (scores[h.row] as (number | null)[])[h.k] = null;
    hole = a.row < b.row || (a.row === b.row && a.k <= b.k) ? a : b;
  }
  const labels = Array.from({ length: n }, () => int(c));
  const columns: { name: string; data: unknown[]; type?: string }[] = [
    big
      ? { name: 'label', data: labels.map((y) => BigInt(y)), type: 'INT64' }
      : { name: 'label', data: labels, type: 'INT32' },
  ];
  if (rnd() < 0.5) columns.push({ name: 'note', data: labels.map((y) => `row ${y}`), type: 'STRING' });
  if (list) columns.push({ name: 'probs', data: scores });
  else for (let k = 0; k < c; k++) columns.push({ name: `p_${k}`, data: scores.map((s) => s[k]), type: 'DOUBLE' });
  if (weights) columns.push({ name: 'w', data: labels.map(() => int(4) / 2), type: 'DOUBLE' });
  const path = join(dir, `f${seed}.parquet`);
  const rowGroupSize = 1 + int(70);
  writeFileSync(path, Buffer.from(parquetWriteBuffer({ columnData: columns as never, rowGroupSize })));
  return { path, n, c, list, weights, rowGroupSize, ...(hole === undefined ? {} : { hole }) };
}

/** The file's rows as hyparquet's objects, converted row by row (the reference). */
async function reference(t: Case, range: [number, number]) {
  const rows = (await parquetReadObjects({ file: await asyncBufferFromFile(t.path) })) as Record<string, unknown>[];
  const labels: number[] = [];
  const scores: number[] = [];
  const weights: number[] = [];
  for (const row of rows.slice(range[0], range[1])) {
    labels.push(Number(row.label));
    const values = t.list ? (row.probs as number[]) : Array.from({ length: t.c }, (_, k) => row[`p_${k}`] as number);
    scores.push(...values);
    if (t.weights) weights.push(row.w as number);
  }
  return { labels, scores, weights };
}

async function read(t: Case, batchRows: number, range?: [number, number]) {
  const batches: PredictionBatch[] = [];
  const stream = streamParquet(checkRead('test', t.path, t.weights ? { weightColumn: 'w' } : {}), batchRows, range);
  for await (const b of stream) batches.push(b);
  return batches;
}

describe('streamParquet', () => {
  it('gives hyparquet’s row objects, batch by batch, for any row groups, batches and row ranges', async () => {
    for (let seed = 1; seed <= 60; seed++) {
      const t = makeFile(seed);
      if (t.hole !== undefined) continue;
      const rnd = mulberry32(1000 + seed);
      const batchRows = 1 + Math.floor(rnd() * 40);
      const a = Math.floor(rnd() * t.n);
      const range: [number, number] | undefined = rnd() < 0.5 ? undefined : [a, a + 1 + Math.floor(rnd() * t.n)];
      const batches = await read(t, batchRows, range);
      // a range selects the row groups it overlaps, whole (stream chunks are cut at row groups)
      const first = batches[0]?.firstRow ?? 0;
      const last =
        batches.length === 0 ? 0 : (batches.at(-1) as PredictionBatch).firstRow + (batches.at(-1) as PredictionBatch).n;
      const g = t.rowGroupSize;
      const expected: [number, number] =
        range === undefined
          ? [0, t.n]
          : [Math.floor(range[0] / g) * g, Math.min(t.n, Math.ceil(Math.min(t.n, range[1]) / g) * g)];
      expect([first, last], `seed ${seed}`).toEqual(expected);
      let at = first;
      for (const b of batches) {
        expect([b.firstRow, b.n <= 2 * batchRows, b.numClasses], `seed ${seed}`).toEqual([at, true, t.c]);
        at += b.n;
      }
      const ref = await reference(t, [first, last]);
      expect(
        batches.flatMap((b) => Array.from(b.labels)),
        `seed ${seed}`,
      ).toEqual(ref.labels);
      expect(
        batches.flatMap((b) => Array.from(b.scores ?? [])),
        `seed ${seed}`,
      ).toEqual(ref.scores);
      if (t.weights)
        expect(
          batches.flatMap((b) => Array.from(b.weights ?? [])),
          `seed ${seed}`,
        ).toEqual(ref.weights);
    }
  });

  it('names the first null score in row order, with its row and column', async () => {
    let checked = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const t = makeFile(seed);
      if (t.hole === undefined) continue;
      checked++;
      const error = await read(t, 1 + (seed % 17)).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error, `seed ${seed}`).toBeInstanceOf(UMError);
      expect((error as UMError).message, `seed ${seed}`).toContain(
        `${t.path}: row ${t.hole.row}, column "p_${t.hole.k}": expected a number`,
      );
    }
    expect(checked).toBeGreaterThanOrEqual(5);
  });
});
