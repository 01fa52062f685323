import { asyncBufferFromFile, parquetMetadataAsync, parquetRead, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import type { ScoreKind } from '../input/types.js';
import { fileFail, openInput, readFail } from './fileError.js';
import { BATCH_ROWS, collect, type PredictionBatch } from './batches.js';
import type { PredictionData } from './types.js';
import { KEYS, parquetBatch } from './parquetBatch.js';
import type { ReadSpec } from './readSpec.js';

/** Largest row count accepted from Parquet metadata (2^53 − 1: beyond it, row numbers are not exact doubles). */
const MAX_ROWS = Number.MAX_SAFE_INTEGER;

/**
 * The file's row count, checked (internal): the metadata's `num_rows` and every row group's must be whole numbers in
 * [0, 2^53 − 1] and agree with each other, so a corrupt count is a located error, never a crash or a silent loss.
 */
export function parquetRows(fn: string, path: string, metadata: FileMetaData): number {
  const count = (v: unknown, what: string): number => {
    const x = typeof v === 'bigint' ? Number(v) : v;
    if (typeof x !== 'number' || !Number.isInteger(x) || x < 0 || x > MAX_ROWS)
      fileFail(
        'UM_FILE_FORMAT',
        fn,
        path,
        `${what} must be a whole number of rows in [0, 2^53 − 1]`,
        {},
        { value: typeof v === 'bigint' ? String(v) : v },
      );
    return x;
  };
  const total = count(metadata.num_rows, "the metadata's row count (num_rows)");
  let sum = 0;
  metadata.row_groups.forEach((g, k) => {
    sum += count(g.num_rows, `row group ${k}'s row count`);
  });
  if (sum !== total)
    fileFail('UM_FILE_FORMAT', fn, path, `the metadata declares ${total} rows but its row groups hold ${sum}`);
  return total;
}

/**
 * Reads Parquet with hyparquet: a `label` column and either one list column `probs`, `logits` or `logprobs` (the
 * declared `input` selects it) or numbered score columns `<prefix>0 … <prefix>{C−1}`.
 */
export function readParquet(spec: ReadSpec): Promise<PredictionData> {
  return collect(streamParquet(spec));
}

/** Streams a Parquet file in batches of `batchRows` rows, reading only the byte ranges of each batch. */
export async function* streamParquet(
  spec: ReadSpec,
  batchRows = BATCH_ROWS,
  rowRange?: [number, number],
): AsyncGenerator<PredictionBatch> {
  const { fn, path, labelColumn, scorePrefix, weightColumn, classes } = spec;
  let file: AsyncBuffer;
  let metadata: FileMetaData;
  // read by position: a regular file only (checked before anything opens it)
  await (await openInput(fn, path, false)).close();
  try {
    file = await asyncBufferFromFile(path);
  } catch (error) {
    readFail(fn, path, error);
  }
  try {
    metadata = await parquetMetadataAsync(file);
  } catch (error) {
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `is not a readable Parquet file (${error instanceof Error ? error.message : String(error)}; ${file.byteLength} bytes)`,
    );
  }
  const total = parquetRows(fn, path, metadata);
  if (total === 0) fileFail('UM_EMPTY', fn, path, 'has no rows');
  // only the columns the metrics use; batches follow the row groups (a row group is decoded whole), split when large
  const top = metadata.schema.slice(1).map((e) => e.name);
  const prefix = new RegExp(`^${scorePrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\d+$`);
  const classColumns = new Set(classes === undefined ? [] : classes.names.map((name) => `${classes.prefix}${name}`));
  const wanted = top.filter(
    (name) =>
      name === labelColumn ||
      name === weightColumn ||
      KEYS.includes(name as ScoreKind) ||
      prefix.test(name) ||
      classColumns.has(name),
  );
  // columns are kept by name, where a second column of the same name would silently replace the first
  const twice = wanted.find((name, j) => wanted.indexOf(name) !== j);
  if (twice !== undefined)
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `has two columns named ${JSON.stringify(twice)}; which one is meant is ambiguous`,
    );
  // a flat column holds one value (or null) per row: a chunk with another count disagrees with the row count
  metadata.row_groups.forEach((g, k) => {
    for (const chunk of g.columns) {
      const m = chunk.meta_data;
      if (
        m === undefined ||
        m.path_in_schema.length !== 1 ||
        !wanted.includes(m.path_in_schema[0] as string) ||
        KEYS.includes(m.path_in_schema[0] as ScoreKind)
      )
        continue;
      if (Number(m.num_values) !== Number(g.num_rows)) {
        fileFail(
          'UM_FILE_FORMAT',
          fn,
          path,
          `row group ${k} declares ${Number(g.num_rows)} rows, but its column ${JSON.stringify(m.path_in_schema[0])} holds ${Number(m.num_values)} values`,
        );
      }
    }
  });
  // row groups as they are read: a huge declared count must not be laid out before the first read fails
  function* groups(): Generator<[number, number, number]> {
    let at = 0;
    for (const [k, g] of metadata.row_groups.entries()) {
      const end = at + Number(g.num_rows);
      yield [k, at, end];
      at = end;
    }
  }
  // every column when none is wanted (the batch then says which columns it expected)
  const read = wanted.length > 0 ? wanted : top;
  const ignoredColumns = top.filter((name) => !wanted.includes(name));
  for (const [group, groupStart, groupEnd] of groups()) {
    if (groupEnd === groupStart) continue;
    if (rowRange !== undefined && (groupEnd <= rowRange[0] || groupStart >= rowRange[1])) continue;
    // a row group is decoded whole, once: asking hyparquet for each batch's rows decoded the group again per batch
    // (three times for DuckDB's 65 574-row groups and um's 32 768-row batches)
    let chunks: Map<string, Chunk[]>;
    try {
      chunks = await readChunks(file, metadata, read, groupStart, groupEnd);
    } catch (error) {
      fileFail(
        'UM_FILE_FORMAT',
        fn,
        path,
        `rows ${groupStart}…${groupEnd - 1} cannot be read (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    // every column holds the group's declared rows: more would be cut off silently below, fewer leave a gap (the
    // metadata check above does not see a list column's rows)
    for (const name of read) {
      const held = (chunks.get(name) ?? []).reduce((sum, c) => sum + c.data.length, 0);
      if (held !== groupEnd - groupStart)
        fileFail(
          'UM_FILE_FORMAT',
          fn,
          path,
          `row group ${group} declares ${groupEnd - groupStart} rows, but its column ${JSON.stringify(name)} holds ${held}`,
        );
    }
    for (let start = groupStart; start < groupEnd; start += 2 * batchRows) {
      const end = Math.min(groupEnd, start + 2 * batchRows);
      const columns = new Map(read.map((name) => [name, rowsOf(chunks.get(name) ?? [], start, end)]));
      // the row count comes from the metadata; a file whose pages hold fewer (or more) rows is corrupt
      const held = Math.min(...read.map((name) => columns.get(name)?.length ?? 0));
      if (held !== end - start)
        fileFail(
          'UM_FILE_FORMAT',
          fn,
          path,
          `rows ${start}…${end - 1}: the metadata declares ${end - start} rows, the data holds ${held}`,
        );
      yield {
        ...parquetBatch(spec, columns, start),
        ignoredColumns,
      };
    }
  }
}

/** Decoded values of one column from row `start` on (a page or a row group, as hyparquet delivers them). */
interface Chunk {
  start: number;
  data: ArrayLike<unknown>;
}

/**
 * The decoded chunks of the named top-level columns of rows [start, end) (internal): read column by column
 * (hyparquet's `onChunk`), not as one object per row — on 1 000 000 × 10 the objects were 3.9 s of CPU against
 * 1.6 s, most of it making and collecting them. The chunks are kept as decoded (no copy of the row group).
 */
async function readChunks(
  file: AsyncBuffer,
  metadata: FileMetaData,
  names: readonly string[],
  start: number,
  end: number,
): Promise<Map<string, Chunk[]>> {
  const chunks = new Map<string, Chunk[]>(names.map((name) => [name, []]));
  await parquetRead({
    file,
    metadata,
    rowStart: start,
    rowEnd: end,
    columns: [...names],
    onChunk: ({ columnName, columnData, rowStart }) =>
      void chunks.get(columnName)?.push({ start: rowStart, data: columnData }),
  });
  return chunks;
}

/**
 * A column's values of rows [from, to), copied out of its chunks. A row no chunk holds is not filled: the array is
 * then as long as the rows found (shorter than asked), which the caller reports as a corrupt file.
 */
function rowsOf(chunks: readonly Chunk[], from: number, to: number): unknown[] {
  const out: unknown[] = [];
  let found = 0;
  for (const { start, data } of chunks) {
    const a = Math.max(from, start);
    const b = Math.min(to, start + data.length);
    for (let i = a; i < b; i++) out[i - from] = data[i - start];
    if (b > a) found += b - a;
  }
  if (found !== out.length) out.length = found;
  return out;
}
