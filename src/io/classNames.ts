import { fail } from '../errors/fail.js';
import { formatValue } from '../errors/formatValue.js';
import { fileFail, type FilePlace } from './fileError.js';
import type { PredictionData } from './types.js';

/**
 * Class names declared by the user (`options.classes`, the CLI's `--classes`) (internal): class k is the k-th name.
 * Nothing is guessed — no sorting, no order of first appearance: a file's labels are these names, and its score
 * columns are named after them or numbered in the same order.
 */
export interface ClassNames {
  readonly names: readonly string[];
  /** Prefix of score columns named after the classes (`<prefix><name>`; default none). */
  readonly prefix: string;
  /** The class index of a label as read: a string equal to a name, a number whose decimal text (`String(x)`) is one; else undefined. */
  indexOf(value: unknown): number | undefined;
}

/** Largest number of names accepted (the bound of every count-like option). */
const MAX_CLASSES = 2 ** 20;

/**
 * Checks `options.classes` — an array of at least 2 distinct non-empty strings — and builds the lookup
 * (undefined when not given). `prefix` is `options.scorePrefix`, the prefix of the named score columns.
 */
export function classNames(fn: string, names: unknown, prefix: string | undefined): ClassNames | undefined {
  if (names === undefined) return undefined;
  if (!Array.isArray(names))
    fail('UM_OPTION', fn, 'options.classes', 'be an array of class names (strings, class 0 first)', { value: names });
  if (names.length < 2 || names.length > MAX_CLASSES)
    fail('UM_OPTION', fn, 'options.classes', `name between 2 and ${MAX_CLASSES} classes`, { value: names.length });
  const index = new Map<string, number>();
  names.forEach((name: unknown, k) => {
    if (typeof name !== 'string' || name === '')
      fail('UM_OPTION', fn, 'options.classes', 'be non-empty strings', { index: [k], value: name });
    const seen = index.get(name);
    if (seen !== undefined)
      fail(
        'UM_OPTION',
        fn,
        'options.classes',
        `be distinct (${JSON.stringify(name)} is class ${seen} and class ${k})`,
        { index: [k], value: name },
      );
    index.set(name, k);
  });
  return {
    names: [...(names as string[])],
    prefix: prefix ?? '',
    indexOf(value) {
      if (typeof value === 'string') return index.get(value);
      if ((typeof value === 'number' && Number.isFinite(value)) || typeof value === 'bigint')
        return index.get(String(value));
      return undefined;
    },
  };
}

/** The class index of a label, or a `UM_LABEL` error at `place` naming the value and the classes (internal). */
export function classOf(
  fn: string,
  path: string,
  classes: ClassNames,
  value: unknown,
  place: FilePlace | string,
): number {
  const k = classes.indexOf(value);
  if (k !== undefined) return k;
  const list =
    classes.names.length <= 12
      ? classes.names.join(', ')
      : `${classes.names.slice(0, 12).join(', ')}, … (${classes.names.length} in all)`;
  const problem = `label ${formatValue(value)} is not one of options.classes (${list})`;
  // Parquet and JSON places are written out ("row 4, column …"); CSV and JSON Lines are lines
  if (typeof place === 'string') fileFail('UM_LABEL', fn, path, `${place}: ${problem}`);
  fileFail('UM_LABEL', fn, path, problem, place);
}

/**
 * The header columns of the scores, in class order, when every class has a column `<prefix><name>`; undefined when
 * none has. `numbered` are the columns of the numbered layout (`p_0 …`): a header holding both layouts, on different
 * columns, is ambiguous, and so is one naming only some of the classes (internal; CSV and Parquet).
 */
export function namedScoreColumns(
  fn: string,
  path: string,
  header: readonly string[],
  classes: ClassNames,
  numbered: readonly number[],
  place: FilePlace = {},
): number[] | undefined {
  const named = classes.names.map((name) => header.indexOf(`${classes.prefix}${name}`));
  const present = named.filter((j) => j >= 0).length;
  if (present === 0) return undefined;
  const column = (k: number): string => JSON.stringify(`${classes.prefix}${classes.names[k] as string}`);
  if (present < named.length) {
    const k = named.indexOf(-1);
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `has score columns named after some of options.classes but not ${column(k)} (class ${k})`,
      place,
      { value: header.join(',') },
    );
  }
  named.forEach((j, k) => {
    if (header.indexOf(`${classes.prefix}${classes.names[k] as string}`, j + 1) >= 0)
      fileFail('UM_FILE_FORMAT', fn, path, `score column ${column(k)} appears twice`, place);
  });
  if (numbered.length > 0 && numbered.some((j, k) => named[k] !== j)) {
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `has score columns named after options.classes and numbered ones (${numbered.map((j) => header[j]).join(', ')}); which are the scores is ambiguous`,
      place,
    );
  }
  return named;
}

/**
 * Checks that a file's scores fit the declared classes: one score per class, or a single column (P(y = 1) of a
 * binary file) for two classes (internal).
 */
export function checkClassCount(fn: string, path: string, classes: ClassNames, numClasses: number): void {
  if (numClasses === classes.names.length || (numClasses === 1 && classes.names.length === 2)) return;
  fileFail(
    'UM_FILE_FORMAT',
    fn,
    path,
    `has ${numClasses} scores per row, but options.classes names ${classes.names.length} classes (${formatValue(classes.names.length <= 12 ? classes.names : classes.names.slice(0, 12))})`,
  );
}

/** The data with the declared class names, checked against its number of scores (internal; also each streamed batch). */
export function named<T extends PredictionData>(fn: string, classes: ClassNames | undefined, data: T): T {
  if (classes === undefined) return data;
  checkClassCount(fn, data.path, classes, data.numClasses);
  return { ...data, classes: classes.names };
}
