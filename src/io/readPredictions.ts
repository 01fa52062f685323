import { open, stat } from 'node:fs/promises';
import { fail } from '../errors/fail.js';
import { BATCH_ROWS, type PredictionBatch } from './batches.js';
import { readCsv, streamCsv } from './readCsv.js';
import { npyHeader, streamNpy } from './streamNpy.js';
import { readJson } from './readJson.js';
import { readJsonl, streamJsonl } from './readJsonl.js';
import { readParquet, streamParquet } from './readParquet.js';
import { readNpy } from './readNpy.js';
import type { PredictionData, ReadOptions } from './types.js';
import { named } from './classNames.js';
import { checkRead } from './readSpec.js';

/**
 * Reads predictions and labels from a CSV, JSON or NumPy file into flat row-major arrays.
 *
 * **Formula.** Not applicable (input/output). The result holds scores s[i·C + k] for row i and class k.
 *
 * **Conventions.**
 * - CSV: a header line; the label column (default `label`) and score columns `<prefix>0 … <prefix>{C−1}` (default
 *   prefix `p_`) in any order; other columns are ignored and listed in `ignoredColumns`. Cells are strict decimal
 *   numbers (`NaN` and `inf` are read so that validation can report them). Empty lines are skipped.
 * - JSON: `{ labels, probs | logits | logprobs }` with nested rows; the key declares the kind of the scores. Ensemble
 *   members `{ labels, member_probs | member_logits | member_logprobs }` ([S][N][C]) fill `members` instead.
 * - JSON Lines (`.jsonl`, `.ndjson`): one `{label, probs | logits | logprobs}` object per line, the same key on every
 *   line; errors give the line.
 * - Parquet (read with hyparquet): a `label` column and a list column `probs`/`logits`/`logprobs`, or numbered score
 *   columns `<prefix>0 …`; errors give the row.
 * - NumPy: scores `.npy` of shape [N, C], or [S, N, C] for ensemble members (float32 kept as `Float32Array`,
 *   Fortran order transposed), labels in a second `.npy` given by `options.labels`.
 * - With `classes` (CSV, JSON, JSON Lines, Parquet) each label must be one of the names, compared as text (a
 *   number by its decimal form); another is a `UM_LABEL` error at its line or row. CSV and Parquet scores are the
 *   columns named `<scorePrefix><name>` (no prefix by default) when every class has one, else the numbered ones; a
 *   header with both, on different columns, is ambiguous and rejected. The names are kept in `classes`.
 * - An option the format does not read is a `UM_OPTION` error, never ignored: `labels` is for NumPy only;
 *   `labelColumn` and `scorePrefix` for CSV and Parquet; `weightColumn` for CSV, JSON Lines and Parquet; `members` for
 *   JSON and NumPy; `classes` for all but NumPy.
 * - Values are read as they are; the metrics validate them and `locate` turns a row (and column) index into the
 *   file position for error messages.
 * - Text (CSV, JSON Lines, JSON) must be UTF-8; a leading byte-order mark is dropped; another byte that is not UTF-8
 *   is a `UM_FILE_FORMAT` error naming its line and byte. A CSV record or JSON line holds at most 16 MiB, so
 *   memory stays bounded on any input (`/dev/zero` stops there). A label or weight column that appears twice is an
 *   error (which one is meant is ambiguous).
 * - CSV and JSON Lines are read front to back, so a FIFO works (the reader finishes when its writer closes it);
 *   JSON, NumPy and Parquet need a regular file (a FIFO or device is rejected before it is opened). A NumPy file's
 *   data must be exactly as long as its header's shape says, and Parquet row counts must agree with the data.
 *
 * **References.** NumPy `.npy` format v1.0/2.0, numpy.org/doc/stable/reference/generated/numpy.lib.format.html;
 * RFC 4180 (CSV).
 *
 * @param path file to read.
 * @param options `input`, `format`, `labels` (NumPy labels path), `labelColumn`, `scorePrefix`, `weightColumn`,
 *   `members`, `requireLabels` (default true), `classes` (class names, class 0 first: string labels and score
 *   columns named after the classes; see {@link ReadOptions}).
 * @returns a {@link PredictionData}.
 * @throws {UMError} `UM_FILE_NOT_FOUND`, `UM_FILE_READ`, `UM_FILE_FORMAT` (with file, line and column where the
 *   format has them), `UM_EMPTY` (no data rows), `UM_OPTION`, `UM_LABEL` (a label not among `classes`).
 * @example
 * ```js
 * import { readPredictions } from 'uncertainty-metrics/io';
 * const d = await readPredictions('examples/data/logreg_test.csv');
 * [d.n, d.numClasses, d.columns[9]]; // => [2000, 10, 'p_9']
 * ```
 */
export async function readPredictions(path: string, options: ReadOptions = {}): Promise<PredictionData> {
  const spec = checkRead('readPredictions', path, options);
  const { fn, classes } = spec;
  switch (spec.format) {
    case 'csv':
      return named(fn, classes, await readCsv(spec));
    case 'json':
      return named(fn, classes, await readJson(spec));
    case 'jsonl':
      return named(fn, classes, await readJsonl(spec));
    case 'parquet':
      return named(fn, classes, await readParquet(spec));
    case 'npy':
      return readNpy(spec);
  }
}

/**
 * Reads a prediction file batch by batch in constant memory: what `um metrics` does with large files, feeding
 * {@link uncertainty-metrics!createState} states.
 *
 * **Formula.** Concatenating the batches gives exactly what {@link readPredictions} returns (same rows, same values).
 *
 * **Conventions.**
 * - CSV, JSON Lines, Parquet and C-ordered 2-D NumPy files stream `batchRows` rows at a time (default 65 536);
 *   a JSON document and NumPy ensembles or Fortran-ordered arrays are read whole and come as one batch.
 * - Each batch is a `PredictionData` of its rows with `firstRow`, its offset in the file; its `locate` names the
 *   position in the file (line for CSV/JSON Lines, row for Parquet/NumPy).
 * - A malformed or truncated file stops the stream with a `UM_FILE_FORMAT` error giving the line, row or byte
 *   where it breaks; batches already yielded are not a result — stop using them.
 *
 * **References.** As {@link readPredictions}.
 *
 * @param path file to read.
 * @param options {@link ReadOptions} plus `batchRows`.
 * @returns an async iterable of batches.
 * @throws {UMError} as {@link readPredictions}, when the batch that meets the problem is read.
 * @example
 * ```js
 * import { streamPredictions } from 'uncertainty-metrics/io';
 * let rows = 0;
 * for await (const b of streamPredictions('examples/data/logreg_test.csv', { batchRows: 500 })) rows += b.n;
 * rows; // => 2000
 * ```
 */
export async function* streamPredictions(
  path: string,
  options: ReadOptions & { batchRows?: number } = {},
): AsyncGenerator<PredictionBatch> {
  const spec = checkRead('streamPredictions', path, options);
  const { fn, classes } = spec;
  const batchRows = options.batchRows ?? BATCH_ROWS;
  if (!Number.isInteger(batchRows) || batchRows < 1)
    fail('UM_OPTION', fn, 'options.batchRows', 'be an integer ≥ 1', { value: batchRows });
  switch (spec.format) {
    case 'csv':
      for await (const b of streamCsv(spec, batchRows)) yield named(fn, classes, b);
      return;
    case 'jsonl':
      for await (const b of streamJsonl(spec, batchRows)) yield named(fn, classes, b);
      return;
    case 'parquet':
      for await (const b of streamParquet(spec, batchRows)) yield named(fn, classes, b);
      return;
    case 'npy':
      if (await streamableNpy(path)) {
        yield* streamNpy(spec, batchRows);
        return;
      }
      yield { ...(await readNpy(spec)), firstRow: 0 };
      return;
    case 'json':
      yield { ...named(fn, classes, await readJson(spec)), firstRow: 0 };
  }
}

/** Whether a `.npy` file is a C-ordered 2-D float array (streamable); anything else is read whole (internal). */
async function streamableNpy(path: string): Promise<boolean> {
  let handle;
  try {
    // never opens a FIFO (which could block): the whole-file reader rejects what is not a regular file
    if (!(await stat(path)).isFile()) return false;
    handle = await open(path, 'r');
  } catch {
    return false; // the whole-file reader reports it
  }
  try {
    const h = await npyHeader('streamPredictions', path, handle);
    return h.shape.length === 2 && !h.fortran && (h.descr === '<f8' || h.descr === '<f4');
  } catch {
    return false;
  } finally {
    await handle.close();
  }
}
