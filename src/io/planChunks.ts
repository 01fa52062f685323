import { open, stat } from 'node:fs/promises';
import { extname } from 'node:path';
import { parse } from 'csv-parse/sync';
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';
import type { CsvRange } from './readCsv.js';
import { parquetRows } from './readParquet.js';
import { npyHeader } from './streamNpy.js';
import type { ReadOptions } from './types.js';

/** Rows per chunk of a parallel read (64 batches). */
export const CHUNK_ROWS = 1 << 20;

/** A part of a file that can be read on its own: a CSV byte range, a row range, or the whole file. */
export type Chunk =
  { kind: 'csv'; range: CsvRange } | { kind: 'parquet' | 'npy'; rows: [number, number] } | { kind: 'whole' };

const WHOLE: Chunk[] = [{ kind: 'whole' }];

/**
 * Splits a prediction file into chunks of about {@link CHUNK_ROWS} rows that can be read independently (internal):
 * CSV at line starts (only when the file has no quotes and no blank lines, so a newline always ends a row),
 * Parquet at row-group boundaries, 2-D NumPy at row boundaries. Anything else — and any file the planner cannot
 * read — is one whole chunk, read by the ordinary reader (which reports its problems).
 */
export async function planChunks(path: string, options: ReadOptions, chunkRows = CHUNK_ROWS): Promise<Chunk[]> {
  const format = options.format ?? { '.csv': 'csv', '.parquet': 'parquet', '.npy': 'npy' }[extname(path).toLowerCase()];
  try {
    // a FIFO or device is read once, front to back: opening it here would consume (or wait for) its writer
    if (!(await stat(path)).isFile()) return WHOLE;
    if (format === 'csv') return await planCsv(path, chunkRows);
    if (format === 'parquet') return await planParquet(path, chunkRows);
    if (format === 'npy') return await planNpy(path, chunkRows);
  } catch {
    // the reader reports the problem with its position
  }
  return WHOLE;
}

async function planCsv(path: string, chunkRows: number): Promise<Chunk[]> {
  const handle = await open(path, 'r');
  try {
    // 8 MiB a read, or the whole file and one byte (a read that fills the buffer means more may follow): an 8 MiB
    // buffer zero-filled for a small file cost more than planning it
    const buffer = Buffer.alloc(Math.min(8 << 20, (await handle.stat()).size + 1));
    let position = 0;
    let header: string[] | undefined;
    let headerEnd = 0;
    let rows = 0;
    const starts: { start: number; line: number; row: number }[] = [];
    for (;;) {
      const { bytesRead } = await handle.read(buffer, 0, buffer.length, position);
      if (bytesRead === 0) break;
      const view = buffer.subarray(0, bytesRead);
      if (view.includes(34)) return WHOLE; // a quote: a newline may sit inside a field
      let at = 0;
      if (header === undefined) {
        const nl = view.indexOf(10);
        if (nl < 0) return WHOLE;
        header = (parse(view.subarray(0, nl).toString('utf8'), { bom: true, trim: true }) as string[][])[0];
        headerEnd = nl + 1;
        at = nl + 1;
      }
      // every read starts at a line start
      for (;;) {
        const nl = view.indexOf(10, at);
        if (nl < 0) break;
        // a blank line (\n or \r\n alone) is skipped by the reader and would shift the row count
        if (nl === at || (nl === at + 1 && view[at] === 13)) return WHOLE;
        if (rows % chunkRows === 0) starts.push({ start: position + at, line: rows + 2, row: rows });
        rows++;
        at = nl + 1;
      }
      if (at < bytesRead && bytesRead === buffer.length) {
        if (at === 0) return WHOLE; // a line longer than the buffer
        position += at; // read the partial last line again
        continue;
      }
      if (at < bytesRead) {
        // the file ends without a newline: its last line is one more row
        if (rows % chunkRows === 0) starts.push({ start: position + at, line: rows + 2, row: rows });
        rows++;
      }
      position += bytesRead;
    }
    if (header === undefined || starts.length < 2 || headerEnd === 0) return WHOLE;
    const size = (await handle.stat()).size;
    return starts.map((s, k) => ({
      kind: 'csv' as const,
      range: {
        start: s.start,
        end: starts[k + 1]?.start ?? size,
        header: header as string[],
        firstLine: s.line,
        firstRow: s.row,
      },
    }));
  } finally {
    await handle.close();
  }
}

async function planParquet(path: string, chunkRows: number): Promise<Chunk[]> {
  const metadata = await parquetMetadataAsync(await asyncBufferFromFile(path));
  parquetRows('streamPredictions', path, metadata); // a bad count: one whole chunk, whose reader reports it
  const chunks: Chunk[] = [];
  let start = 0;
  let at = 0;
  for (const g of metadata.row_groups) {
    at += Number(g.num_rows);
    if (at - start >= chunkRows) {
      chunks.push({ kind: 'parquet', rows: [start, at] });
      start = at;
    }
  }
  if (at > start) chunks.push({ kind: 'parquet', rows: [start, at] });
  return chunks.length < 2 ? WHOLE : chunks;
}

async function planNpy(path: string, chunkRows: number): Promise<Chunk[]> {
  const handle = await open(path, 'r');
  try {
    const h = await npyHeader('streamPredictions', path, handle);
    if (h.shape.length !== 2 || h.fortran || (h.descr !== '<f8' && h.descr !== '<f4')) return WHOLE;
    const n = h.shape[0] as number;
    const chunks: Chunk[] = [];
    for (let s = 0; s < n; s += chunkRows) chunks.push({ kind: 'npy', rows: [s, Math.min(n, s + chunkRows)] });
    return chunks.length < 2 ? WHOLE : chunks;
  } finally {
    await handle.close();
  }
}
