import { extname } from 'node:path';
import { fail } from '../errors/fail.js';
import { fileFail } from './fileError.js';
import { readCsv } from './readCsv.js';
import { readJson } from './readJson.js';
import { readJsonl } from './readJsonl.js';
import { readParquet } from './readParquet.js';
import { readNpy } from './readNpy.js';
import type { PredictionData, PredictionFormat, ReadOptions } from './types.js';

const FORMATS: Record<string, PredictionFormat> = { '.csv': 'csv', '.json': 'json', '.jsonl': 'jsonl', '.ndjson': 'jsonl', '.parquet': 'parquet', '.npy': 'npy' };

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
 * - Values are read as they are; the metrics validate them and `locate` turns a row (and column) index into the
 *   file position for error messages.
 *
 * **References.** NumPy `.npy` format v1.0/2.0, numpy.org/doc/stable/reference/generated/numpy.lib.format.html;
 * RFC 4180 (CSV).
 *
 * @param path file to read.
 * @param options `input`, `format`, `labels` (NumPy labels path), `labelColumn`, `scorePrefix`, `members`,
 *   `requireLabels` (default true).
 * @returns a {@link PredictionData}.
 * @throws {UMError} `UM_FILE_NOT_FOUND`, `UM_FILE_READ`, `UM_FILE_FORMAT` (with file, line and column where the
 *   format has them), `UM_EMPTY` (no data rows), `UM_OPTION`.
 * @example
 * ```js
 * import { readPredictions } from 'uncertainty-metrics/io';
 * const d = await readPredictions('examples/data/logreg_test.csv');
 * [d.n, d.numClasses, d.columns[9]]; // => [2000, 10, 'p_9']
 * ```
 */
export async function readPredictions(path: string, options: ReadOptions = {}): Promise<PredictionData> {
  const fn = 'readPredictions';
  if (typeof path !== 'string' || path === '') fail('UM_OPTION', fn, 'path', 'be a non-empty string', { value: path });
  const format = options.format ?? FORMATS[extname(path).toLowerCase()];
  if (format === undefined) {
    fileFail('UM_FILE_FORMAT', fn, path, 'has an unknown extension; expected .csv, .json, .jsonl, .parquet or .npy (or give the format)');
  }
  const input = options.input;
  if (input !== undefined && input !== 'probs' && input !== 'logits' && input !== 'logprobs') {
    fail('UM_OPTION', fn, 'options.input', `be one of 'probs', 'logits', 'logprobs'`, { value: input });
  }
  const requireLabels = options.requireLabels !== false;
  switch (format) {
    case 'csv':
      return readCsv(fn, path, input ?? 'probs', options.labelColumn ?? 'label', options.scorePrefix ?? 'p_', requireLabels);
    case 'json':
      return readJson(fn, path, input, options.members === true, requireLabels);
    case 'jsonl':
      return readJsonl(fn, path, input, requireLabels);
    case 'parquet':
      return readParquet(fn, path, input, options.labelColumn ?? 'label', options.scorePrefix ?? 'p_', requireLabels);
    case 'npy':
      return readNpy(fn, path, options.labels, input ?? 'probs', requireLabels);
    default:
      return fail('UM_OPTION', fn, 'options.format', `be 'csv', 'json', 'jsonl', 'parquet' or 'npy'`, { value: format });
  }
}
