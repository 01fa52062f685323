import { describePlace, fileFail } from './fileError.js';
import type { PredictionBatch } from './batches.js';
import { namedScoreColumns } from './classNames.js';
import { inputOrProbs, type ReadSpec } from './readSpec.js';

/** Where a CSV header puts the label, the weight (−1: none) and each class's score (internal). */
export interface CsvLayout {
  labelIndex: number;
  weightIndex: number;
  scoreIndex: number[];
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/**
 * The label, weight and score columns of a header, checked (internal; shared by the general and the fast path).
 * With class names, score columns named after them are taken when present (namedScoreColumns).
 */
export function headerLayout(spec: ReadSpec, record: string[], line: number): CsvLayout {
  const { fn, path, labelColumn, scorePrefix, requireLabels, weightColumn, classes } = spec;
  const scoreIndex: number[] = [];
  const once = (name: string, what: string): void => {
    const j = record.indexOf(name);
    if (j >= 0 && record.indexOf(name, j + 1) >= 0) {
      fileFail(
        'UM_FILE_FORMAT',
        fn,
        path,
        `the ${what} column ${JSON.stringify(name)} appears twice (columns ${j + 1} and ${record.indexOf(name, j + 1) + 1}); which one is meant is ambiguous`,
        { line, column: record.indexOf(name, j + 1) + 1 },
      );
    }
  };
  once(labelColumn, 'label');
  if (weightColumn !== undefined) once(weightColumn, 'weight');
  const labelIndex = record.indexOf(labelColumn);
  if (labelIndex < 0 && requireLabels) {
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `the header must have a ${JSON.stringify(labelColumn)} column (choose another with --label-column)`,
      { line },
      { value: record.join(',') },
    );
  }
  let weightIndex = -1;
  if (weightColumn !== undefined) {
    weightIndex = record.indexOf(weightColumn);
    if (weightIndex < 0)
      fileFail(
        'UM_FILE_FORMAT',
        fn,
        path,
        `the header must have the weight column ${JSON.stringify(weightColumn)}`,
        { line },
        { value: record.join(',') },
      );
  }
  const pattern = new RegExp(`^${escapeRegExp(scorePrefix)}(\\d+)$`);
  const found = new Map<number, number>();
  record.forEach((name, j) => {
    const m = pattern.exec(name);
    if (m !== null) {
      const k = Number(m[1]);
      if (found.has(k))
        fileFail('UM_FILE_FORMAT', fn, path, `score column ${JSON.stringify(name)} appears twice`, {
          line,
          column: j + 1,
        });
      found.set(k, j);
    }
  });
  if (classes !== undefined) {
    const numbered = [...found.entries()].sort((a, b) => a[0] - b[0]).map(([, j]) => j);
    const named = namedScoreColumns(fn, path, record, classes, numbered, { line });
    if (named !== undefined) {
      const clash = named.find((j) => j === labelIndex || j === weightIndex);
      if (clash !== undefined)
        fileFail(
          'UM_FILE_FORMAT',
          fn,
          path,
          `the column ${JSON.stringify(record[clash])} cannot be both a class's scores and the ${clash === labelIndex ? 'label' : 'weight'} column`,
          { line, column: clash + 1 },
        );
      return { labelIndex, weightIndex, scoreIndex: named };
    }
    if (found.size === 0) {
      const names = classes.names.slice(0, 3).map((name) => `${classes.prefix}${name}`);
      fileFail(
        'UM_FILE_FORMAT',
        fn,
        path,
        `the header must have score columns named after the classes (${names.join(', ')}, …) or numbered ${scorePrefix}0, ${scorePrefix}1, … (choose a prefix with --score-prefix)`,
        { line },
        { value: record.join(',') },
      );
    }
  }
  if (found.size === 0) {
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `the header must have score columns ${scorePrefix}0, ${scorePrefix}1, … (choose another prefix with --score-prefix${classes === undefined ? '; columns named after the classes need options.classes' : ''})`,
      { line },
      { value: record.join(',') },
    );
  }
  for (let k = 0; k < found.size; k++) {
    const j = found.get(k);
    if (j === undefined)
      fileFail(
        'UM_FILE_FORMAT',
        fn,
        path,
        `score columns must be numbered ${scorePrefix}0 … ${scorePrefix}${found.size - 1} without gaps; ${scorePrefix}${k} is missing`,
        { line },
      );
    scoreIndex.push(j);
  }
  return { labelIndex, weightIndex, scoreIndex };
}

/** The rows of one CSV batch, column by column (the general parser's lists or the fast path's typed arrays). */
export interface CsvRows {
  labels: number[] | Float64Array;
  scores: number[] | Float64Array;
  weights: number[] | Float64Array;
  /** The line of each row. */
  lines: ArrayLike<number>;
}

/** One batch of CSV rows as `PredictionData` (internal; typed arrays are kept, not copied). */
export function makeBatch(
  spec: ReadSpec,
  header: string[],
  layout: CsvLayout,
  rows: CsvRows,
  firstRow: number,
): PredictionBatch {
  const { path, labelColumn } = spec;
  const { labelIndex, weightIndex, scoreIndex } = layout;
  const { labels, scores, weights, lines } = rows;
  const numClasses = scoreIndex.length;
  const columns = scoreIndex.map((j) => header[j] as string);
  const used = new Set([labelIndex, weightIndex, ...scoreIndex]);
  const ignoredColumns = header.filter((_, j) => !used.has(j));
  return {
    path,
    format: 'csv',
    input: inputOrProbs(spec),
    n: lines.length,
    firstRow,
    numClasses,
    labels: labels instanceof Float64Array ? labels : Float64Array.from(labels),
    hasLabels: labelIndex >= 0,
    scores: scores instanceof Float64Array ? scores : Float64Array.from(scores),
    ...(weightIndex >= 0 ? { weights: weights instanceof Float64Array ? weights : Float64Array.from(weights) } : {}),
    columns,
    ignoredColumns,
    locate(row, column, argument) {
      const line = lines[row];
      if (argument === 'labels') return describePlace(path, { line, column: labelIndex + 1, columnName: labelColumn });
      if (column === undefined) return describePlace(path, { line });
      const j = header.indexOf(columns[column] as string);
      return describePlace(path, { line, column: j + 1, columnName: columns[column] });
    },
  };
}
