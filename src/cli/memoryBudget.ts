import { open, stat } from 'node:fs/promises';
import { totalmem } from 'node:os';
import { asyncBufferFromFile, parquetMetadataAsync } from 'hyparquet';
import { UMError } from '../errors/UMError.js';
import { parquetRows } from '../io/readParquet.js';
import { npyHeader } from '../io/streamNpy.js';

/**
 * Peak memory of the in-memory path per score value (bytes, above the base), measured with `/usr/bin/time` on
 * 10⁷-value files (1 000 000 × 10 and 100 000 × 100; `um metrics --no-stream --json`): NumPy 9–23 B with the
 * class-wise metrics (read as class columns, no copy of the N·C entries) and 6–22 B without (the per-row arrays of
 * the top-label metrics dominate at C = 10); CSV, JSON Lines and Parquet 41–46 B and 37 B (the readers' batches and
 * the parsed rows on top). The estimate takes the upper end and rounds up, so a file that fits by the estimate fits
 * in practice.
 */
const BYTES_PER_VALUE = { npy: { classwise: 30, core: 25 }, text: { classwise: 50, core: 45 } } as const;
/** Node, the WebAssembly kernel and the libraries before any data (measured ≈ 70 MB). */
const BASE_BYTES = 128 * 2 ** 20;
/** Text formats: at least this many bytes of text per score value ("0.1," — real files have more), so the count is an upper estimate. */
const TEXT_BYTES_PER_VALUE = 4;

/**
 * The default memory budget of the in-memory path: a quarter of the machine's memory, so `um metrics` reads a file
 * whole whenever that fits comfortably (it is several times faster than streaming) and streams it otherwise.
 */
export function defaultMemoryBudget(): number {
  return Math.floor(totalmem() / 4);
}

/** The number of score values in a prediction file, read from its header (NumPy, Parquet) or bounded from its size. */
async function scoreValues(file: string): Promise<{ values: number; kind: 'npy' | 'text' }> {
  if (/\.npy$/i.test(file)) {
    const handle = await open(file, 'r');
    try {
      const h = await npyHeader('um metrics', file, handle);
      return { values: h.shape.reduce((a, b) => a * b, 1), kind: 'npy' };
    } finally {
      await handle.close();
    }
  }
  if (/\.parquet$/i.test(file)) {
    const metadata = await parquetMetadataAsync(await asyncBufferFromFile(file));
    parquetRows('um metrics', file, metadata);
    // every value of every column chunk (a list column of C probabilities holds C values per row); a byte-array
    // column (lists written as text) is bounded from its uncompressed size, as text files are
    let values = 0;
    for (const g of metadata.row_groups) {
      for (const c of g.columns) {
        const m = c.meta_data;
        if (m === undefined) continue;
        values +=
          m.type === 'BYTE_ARRAY'
            ? Math.ceil(Number(m.total_uncompressed_size) / TEXT_BYTES_PER_VALUE)
            : Number(m.num_values);
      }
    }
    return { values, kind: 'text' };
  }
  return { values: Math.ceil((await stat(file)).size / TEXT_BYTES_PER_VALUE), kind: 'text' };
}

/** The estimated peak memory (bytes) of evaluating `file` in memory. */
export async function inMemoryBytes(file: string, classwise: boolean): Promise<number> {
  const { values, kind } = await scoreValues(file);
  const per = BYTES_PER_VALUE[kind];
  return BASE_BYTES + values * (classwise ? per.classwise : per.core);
}

/** `--memory MiB` as bytes, or the default budget. */
export function memoryBudget(command: string, flag: unknown): number {
  if (flag === undefined) return defaultMemoryBudget();
  const mib = Number(flag);
  if (typeof flag !== 'string' || flag.trim() === '' || !Number.isFinite(mib) || mib < 1) {
    throw new UMError('UM_OPTION', `${command}: --memory must be a number of MiB ≥ 1; got ${JSON.stringify(flag)}`, {
      fn: command,
      argument: '--memory',
    });
  }
  return mib * 2 ** 20;
}
