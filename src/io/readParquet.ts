import {
  asyncBufferFromFile,
  parquetMetadataAsync,
  parquetReadObjects,
  type AsyncBuffer,
  type FileMetaData,
} from 'hyparquet';
import type { ScoreKind } from '../input/types.js';
import { fileFail, openInput, readFail } from './fileError.js';
import { BATCH_ROWS, collect, type PredictionBatch } from './batches.js';
import type { PredictionData } from './types.js';
import { classOf, namedScoreColumns, type ClassNames } from './classNames.js';

const KEYS: readonly ScoreKind[] = ['probs', 'logits', 'logprobs'];

function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

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
export function readParquet(
  fn: string,
  path: string,
  input: ScoreKind | undefined,
  labelColumn: string,
  scorePrefix: string,
  requireLabels: boolean,
  weightColumn?: string,
  classes?: ClassNames,
): Promise<PredictionData> {
  return collect(
    streamParquet(
      fn,
      path,
      input,
      labelColumn,
      scorePrefix,
      requireLabels,
      weightColumn,
      BATCH_ROWS,
      undefined,
      classes,
    ),
  );
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
  classes?: ClassNames,
): AsyncGenerator<PredictionBatch> {
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
  // rows are read as objects, where a second column of the same name would silently replace the first
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
  // row ranges made as they are read: a huge declared count must not be laid out before the first read fails
  function* ranges(): Generator<[number, number]> {
    let at = 0;
    for (const g of metadata.row_groups) {
      const end = at + Number(g.num_rows);
      for (let start = at; start < end; start += 2 * batchRows) yield [start, Math.min(end, start + 2 * batchRows)];
      at = end;
    }
  }
  for (const [start, end] of ranges()) {
    if (rowRange !== undefined && (end <= rowRange[0] || start >= rowRange[1])) continue;
    let rows: Record<string, unknown>[];
    try {
      rows = (await parquetReadObjects({
        file,
        metadata,
        rowStart: start,
        rowEnd: end,
        ...(wanted.length > 0 ? { columns: wanted } : {}),
      })) as Record<string, unknown>[];
    } catch (error) {
      fileFail(
        'UM_FILE_FORMAT',
        fn,
        path,
        `rows ${start}…${end - 1} cannot be read (${error instanceof Error ? error.message : String(error)})`,
      );
    }
    // the row count comes from the metadata; a file whose pages hold fewer (or more) rows is corrupt
    if (rows.length !== end - start)
      fileFail(
        'UM_FILE_FORMAT',
        fn,
        path,
        `rows ${start}…${end - 1}: the metadata declares ${end - start} rows, the data holds ${rows.length}`,
      );
    yield {
      ...parquetBatch(fn, path, input, labelColumn, scorePrefix, requireLabels, weightColumn, rows, start, classes),
      ignoredColumns: top.filter((name) => !wanted.includes(name)),
    };
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
  classes?: ClassNames,
): PredictionBatch {
  if (rows.length === 0) fileFail('UM_EMPTY', fn, path, 'has no rows');
  const names = Object.keys(rows[0] as object);
  const lists = KEYS.filter((k) => names.includes(k));
  const pattern = new RegExp(`^${scorePrefix.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(\\d+)$`);
  let numbered = names
    .filter((n) => pattern.test(n))
    .sort((a, b) => Number(pattern.exec(a)?.[1]) - Number(pattern.exec(b)?.[1]));
  // score columns named after the declared classes take the place of the numbered ones (namedScoreColumns)
  const named =
    classes === undefined
      ? undefined
      : namedScoreColumns(
          fn,
          path,
          names,
          classes,
          numbered.map((name) => names.indexOf(name)),
        );
  if (named !== undefined) numbered = named.map((j) => names[j] as string);
  let list: ScoreKind | undefined;
  if (input !== undefined && lists.includes(input)) list = input;
  else if (input === undefined && lists.length === 1) list = lists[0];
  else if (lists.length > 1 && input === undefined)
    fileFail('UM_FILE_FORMAT', fn, path, `has columns ${lists.join(' and ')}; choose one with --input`);
  if (list === undefined && numbered.length === 0) {
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `must have a list column probs, logits or logprobs, or score columns ${scorePrefix}0, ${scorePrefix}1, …`,
      {},
      { value: names.join(',') },
    );
  }
  numbered.forEach((name, k) => {
    if (list === undefined && named === undefined && name !== `${scorePrefix}${k}`)
      fileFail(
        'UM_FILE_FORMAT',
        fn,
        path,
        `score columns must be numbered ${scorePrefix}0 … without gaps; ${scorePrefix}${k} is missing`,
      );
  });
  const hasLabels = names.includes(labelColumn);
  if (!hasLabels && requireLabels)
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `must have a ${JSON.stringify(labelColumn)} column (choose another with --label-column)`,
      {},
      { value: names.join(',') },
    );
  const n = rows.length;
  const first = list === undefined ? undefined : (rows[0] as Record<string, unknown>)[list];
  const c = list === undefined ? numbered.length : Array.isArray(first) ? first.length : -1;
  if (c < 1)
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `column ${JSON.stringify(list)} must hold lists of numbers`,
      {},
      { value: first },
    );
  if (weightColumn !== undefined && !names.includes(weightColumn))
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `must have the weight column ${JSON.stringify(weightColumn)}`,
      {},
      { value: names.join(',') },
    );
  const scores = new Float64Array(n * c);
  const labels = new Float64Array(hasLabels ? n : 0);
  const weights = weightColumn === undefined ? undefined : new Float64Array(n);
  for (let r = 0; r < n; r++) {
    const i = firstRow + r;
    const row = rows[r] as Record<string, unknown>;
    const values: unknown[] = list === undefined ? numbered.map((name) => row[name]) : (row[list] as unknown[]);
    if (!Array.isArray(values) || values.length !== c)
      fileFail('UM_FILE_FORMAT', fn, path, `row ${i}: must have ${c} scores like row 0`, {}, { value: values });
    for (let k = 0; k < c; k++) {
      const v = toNumber(values[k]);
      if (v === undefined)
        fileFail(
          'UM_FILE_FORMAT',
          fn,
          path,
          `row ${i}, ${list === undefined ? `column ${JSON.stringify(numbered[k])}` : `"${list}[${k}]"`}: expected a number`,
          {},
          { value: values[k] },
        );
      scores[r * c + k] = v;
    }
    if (hasLabels) {
      if (classes !== undefined)
        labels[r] = classOf(fn, path, classes, row[labelColumn], `row ${i}, column ${JSON.stringify(labelColumn)}`);
      else {
        const y = toNumber(row[labelColumn]);
        if (y === undefined)
          fileFail(
            'UM_FILE_FORMAT',
            fn,
            path,
            `row ${i}, column ${JSON.stringify(labelColumn)}: expected a number${typeof row[labelColumn] === 'string' ? ' (string labels need options.classes)' : ''}`,
            {},
            { value: row[labelColumn] },
          );
        labels[r] = y;
      }
    }
    if (weights !== undefined && weightColumn !== undefined) {
      const wv = toNumber(row[weightColumn]);
      if (wv === undefined)
        fileFail(
          'UM_FILE_FORMAT',
          fn,
          path,
          `row ${i}, column ${JSON.stringify(weightColumn)}: expected a number`,
          {},
          { value: row[weightColumn] },
        );
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
      return list === undefined
        ? `${path}: row ${row}, column ${JSON.stringify(numbered[column])}`
        : `${path}: row ${row}, "${list}[${column}]"`;
    },
  };
}
