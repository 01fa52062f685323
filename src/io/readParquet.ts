import { asyncBufferFromFile, parquetMetadataAsync, parquetReadObjects, type AsyncBuffer, type FileMetaData } from 'hyparquet';
import type { ScoreKind } from '../input/types.js';
import { fileFail, readFail } from './fileError.js';
import { BATCH_ROWS, collect, type PredictionBatch } from './batches.js';
import type { PredictionData } from './types.js';

const KEYS: readonly ScoreKind[] = ['probs', 'logits', 'logprobs'];

function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

/**
 * Reads Parquet with hyparquet: a `label` column and either one list column `probs`, `logits` or `logprobs` (the
 * declared `input` selects it) or numbered score columns `<prefix>0 … <prefix>{C−1}`.
 */
export function readParquet(fn: string, path: string, input: ScoreKind | undefined, labelColumn: string, scorePrefix: string, requireLabels: boolean, weightColumn?: string): Promise<PredictionData> {
  return collect(streamParquet(fn, path, input, labelColumn, scorePrefix, requireLabels, weightColumn));
}

/** Streams a Parquet file in batches of `batchRows` rows, reading only the byte ranges of each batch. */
export async function* streamParquet(
  fn: string,
  path: string,
  input: ScoreKind | undefined,
  labelColumn: string,
  scorePrefix: string,
  requireLabels: boolean,
  weightColumn?: string,
  batchRows = BATCH_ROWS,
  rowRange?: [number, number],
): AsyncGenerator<PredictionBatch> {
  let file: AsyncBuffer;
  let metadata: FileMetaData;
  try {
    file = await asyncBufferFromFile(path);
  } catch (error) {
    readFail(fn, path, error);
  }
  try {
    metadata = await parquetMetadataAsync(file);
  } catch (error) {
    fileFail('UM_FILE_FORMAT', fn, path, `is not a readable Parquet file (${error instanceof Error ? error.message : String(error)}; ${file.byteLength} bytes)`);
  }
  const total = Number(metadata.num_rows);
  if (total === 0) fileFail('UM_EMPTY', fn, path, 'has no rows');
  // only the columns the metrics use; batches follow the row groups (a row group is decoded whole), split when large
  const top = metadata.schema.slice(1).map((e) => e.name);
  const prefix = new RegExp(`^${scorePrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\d+$`);
  const wanted = top.filter((name) => name === labelColumn || name === weightColumn || KEYS.includes(name as ScoreKind) || prefix.test(name));
  const ranges: [number, number][] = [];
  let at = 0;
  for (const g of metadata.row_groups) {
    const end = at + Number(g.num_rows);
    for (let start = at; start < end; start += 2 * batchRows) ranges.push([start, Math.min(end, start + 2 * batchRows)]);
    at = end;
  }
  for (const [start, end] of ranges) {
    if (rowRange !== undefined && (end <= rowRange[0] || start >= rowRange[1])) continue;
    let rows: Record<string, unknown>[];
    try {
      rows = (await parquetReadObjects({ file, metadata, rowStart: start, rowEnd: end, ...(wanted.length > 0 ? { columns: wanted } : {}) })) as Record<string, unknown>[];
    } catch (error) {
      fileFail('UM_FILE_FORMAT', fn, path, `rows ${start}…${end - 1} cannot be read (${error instanceof Error ? error.message : String(error)})`);
    }
    yield parquetBatch(fn, path, input, labelColumn, scorePrefix, requireLabels, weightColumn, rows, start);
  }
}

/** Converts one batch of Parquet rows (internal). */
function parquetBatch(
  fn: string,
  path: string,
  input: ScoreKind | undefined,
  labelColumn: string,
  scorePrefix: string,
  requireLabels: boolean,
  weightColumn: string | undefined,
  rows: Record<string, unknown>[],
  firstRow: number,
): PredictionBatch {
  if (rows.length === 0) fileFail('UM_EMPTY', fn, path, 'has no rows');
  const names = Object.keys(rows[0] as object);
  const lists = KEYS.filter((k) => names.includes(k));
  const pattern = new RegExp(`^${scorePrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\d+)$`);
  const numbered = names.filter((n) => pattern.test(n)).sort((a, b) => Number(pattern.exec(a)?.[1]) - Number(pattern.exec(b)?.[1]));
  let list: ScoreKind | undefined;
  if (input !== undefined && lists.includes(input)) list = input;
  else if (input === undefined && lists.length === 1) list = lists[0];
  else if (lists.length > 1 && input === undefined) fileFail('UM_FILE_FORMAT', fn, path, `has columns ${lists.join(' and ')}; choose one with --input`);
  if (list === undefined && numbered.length === 0) {
    fileFail('UM_FILE_FORMAT', fn, path, `must have a list column probs, logits or logprobs, or score columns ${scorePrefix}0, ${scorePrefix}1, …`, {}, { value: names.join(',') });
  }
  numbered.forEach((name, k) => {
    if (list === undefined && name !== `${scorePrefix}${k}`) fileFail('UM_FILE_FORMAT', fn, path, `score columns must be numbered ${scorePrefix}0 … without gaps; ${scorePrefix}${k} is missing`);
  });
  const hasLabels = names.includes(labelColumn);
  if (!hasLabels && requireLabels) fileFail('UM_FILE_FORMAT', fn, path, `must have a ${JSON.stringify(labelColumn)} column (choose another with --label-column)`, {}, { value: names.join(',') });
  const n = rows.length;
  const first = list === undefined ? undefined : (rows[0] as Record<string, unknown>)[list];
  const c = list === undefined ? numbered.length : Array.isArray(first) ? first.length : -1;
  if (c < 1) fileFail('UM_FILE_FORMAT', fn, path, `column ${JSON.stringify(list)} must hold lists of numbers`, {}, { value: first });
  if (weightColumn !== undefined && !names.includes(weightColumn)) fileFail('UM_FILE_FORMAT', fn, path, `must have the weight column ${JSON.stringify(weightColumn)}`, {}, { value: names.join(',') });
  const scores = new Float64Array(n * c);
  const labels = new Float64Array(hasLabels ? n : 0);
  const weights = weightColumn === undefined ? undefined : new Float64Array(n);
  for (let r = 0; r < n; r++) {
    const i = firstRow + r;
    const row = rows[r] as Record<string, unknown>;
    const values: unknown[] = list === undefined ? numbered.map((name) => row[name]) : (row[list] as unknown[]);
    if (!Array.isArray(values) || values.length !== c) fileFail('UM_FILE_FORMAT', fn, path, `row ${i}: must have ${c} scores like row 0`, {}, { value: values });
    for (let k = 0; k < c; k++) {
      const v = toNumber(values[k]);
      if (v === undefined) fileFail('UM_FILE_FORMAT', fn, path, `row ${i}, ${list === undefined ? `column ${JSON.stringify(numbered[k])}` : `"${list}[${k}]"`}: expected a number`, {}, { value: values[k] });
      scores[r * c + k] = v;
    }
    if (hasLabels) {
      const y = toNumber(row[labelColumn]);
      if (y === undefined) fileFail('UM_FILE_FORMAT', fn, path, `row ${i}, column ${JSON.stringify(labelColumn)}: expected a number`, {}, { value: row[labelColumn] });
      labels[r] = y;
    }
    if (weights !== undefined && weightColumn !== undefined) {
      const wv = toNumber(row[weightColumn]);
      if (wv === undefined) fileFail('UM_FILE_FORMAT', fn, path, `row ${i}, column ${JSON.stringify(weightColumn)}: expected a number`, {}, { value: row[weightColumn] });
      weights[r] = wv;
    }
  }
  const kind = list ?? input ?? 'probs';
  return {
    path,
    format: 'parquet',
    input: kind,
    n,
    firstRow,
    ...(weights === undefined ? {} : { weights }),
    numClasses: c,
    labels,
    hasLabels,
    scores,
    ...(list === undefined ? { columns: numbered } : {}),
    locate(r, column, argument) {
      const row = firstRow + r;
      if (argument === 'labels') return `${path}: row ${row}, column ${JSON.stringify(labelColumn)}`;
      if (column === undefined) return `${path}: row ${row}`;
      return list === undefined ? `${path}: row ${row}, column ${JSON.stringify(numbered[column])}` : `${path}: row ${row}, "${list}[${column}]"`;
    },
  };
}
