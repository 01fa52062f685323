import type { ScoreKind } from '../input/types.js';
import type { PredictionBatch } from './batches.js';
import { classOf, namedScoreColumns } from './classNames.js';
import { fileFail } from './fileError.js';
import type { ReadSpec } from './readSpec.js';

/** The list columns a Parquet file may hold its scores in, one per declared input. */
export const KEYS: readonly ScoreKind[] = ['probs', 'logits', 'logprobs'];

function toNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'bigint') return Number(v);
  return undefined;
}

/** Converts one batch of Parquet rows, given as its columns (internal; streamParquet reads them). */
export function parquetBatch(
  spec: ReadSpec,
  columns: ReadonlyMap<string, unknown[]>,
  firstRow: number,
): PredictionBatch {
  const { fn, path, input, labelColumn, scorePrefix, requireLabels, weightColumn, classes } = spec;
  const names = [...columns.keys()];
  const n = Math.min(...names.map((name) => columns.get(name)?.length ?? 0));
  if (n === 0) fileFail('UM_EMPTY', fn, path, 'has no rows');
  const column = (name: string): unknown[] => columns.get(name) ?? [];
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
  const first = list === undefined ? undefined : column(list)[0];
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
  const scoreColumns = numbered.map(column);
  const listColumn = list === undefined ? undefined : column(list);
  const labelValues = column(labelColumn);
  const weightValues = weightColumn === undefined ? [] : column(weightColumn);
  // where each score is, for errors: made once per batch (a string per cell was 0.8 s on 10^7 cells)
  const scoreWhere = Array.from({ length: c }, (_, k) =>
    list === undefined ? `column ${JSON.stringify(numbered[k])}` : `"${list}[${k}]"`,
  );
  const labelWhere = `column ${JSON.stringify(labelColumn)}`;
  const weightWhere = `column ${JSON.stringify(weightColumn)}`;
  /** A cell as a number, or the error naming its row and place (`where`) and its value. */
  const numberAt = (raw: unknown, i: number, where: string, hint = ''): number => {
    const v = toNumber(raw);
    if (v === undefined)
      fileFail('UM_FILE_FORMAT', fn, path, `row ${i}, ${where}: expected a number${hint}`, {}, { value: raw });
    return v;
  };
  for (let r = 0; r < n; r++) {
    const i = firstRow + r;
    // the row's scores: its list, or its entry of each score column (read in place: no array per row)
    const values = listColumn === undefined ? undefined : (listColumn[r] as unknown[]);
    if (listColumn !== undefined && (!Array.isArray(values) || values.length !== c))
      fileFail('UM_FILE_FORMAT', fn, path, `row ${i}: must have ${c} scores like row 0`, {}, { value: values });
    for (let k = 0; k < c; k++) {
      const raw = values === undefined ? (scoreColumns[k] as unknown[])[r] : values[k];
      scores[r * c + k] = numberAt(raw, i, scoreWhere[k] as string);
    }
    if (hasLabels) {
      if (classes !== undefined)
        labels[r] = classOf(fn, path, classes, labelValues[r], `row ${i}, column ${JSON.stringify(labelColumn)}`);
      else
        labels[r] = numberAt(
          labelValues[r],
          i,
          labelWhere,
          typeof labelValues[r] === 'string' ? ' (string labels need options.classes)' : '',
        );
    }
    if (weights !== undefined && weightColumn !== undefined) weights[r] = numberAt(weightValues[r], i, weightWhere);
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
    locate: locator(path, firstRow, labelColumn, list, numbered),
  };
}

/**
 * A batch's `locate` (made here, not in {@link parquetBatch}: a closure there would share its scope, and with it the
 * batch's decoded columns, for as long as the batch is kept — 1 000 000 × 10 read whole held 300 MB more).
 */
function locator(
  path: string,
  firstRow: number,
  labelColumn: string,
  list: ScoreKind | undefined,
  numbered: readonly string[],
): PredictionBatch['locate'] {
  return (r, column, argument) => {
    const row = firstRow + r;
    if (argument === 'labels') return `${path}: row ${row}, column ${JSON.stringify(labelColumn)}`;
    if (column === undefined) return `${path}: row ${row}`;
    return list === undefined
      ? `${path}: row ${row}, column ${JSON.stringify(numbered[column])}`
      : `${path}: row ${row}, "${list}[${column}]"`;
  };
}
