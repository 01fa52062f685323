import { extname } from 'node:path';
import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import type { ScoreKind } from '../input/types.js';
import { classNames, type ClassNames } from './classNames.js';
import { fileFail } from './fileError.js';
import type { PredictionFormat, ReadOptions } from './types.js';

/**
 * A reading of one file, resolved once from {@link ReadOptions} by {@link checkRead}: the options checked, their
 * defaults applied and the class names parsed. Every reader (CSV, JSON, JSON Lines, Parquet, NumPy; whole, streamed
 * or by chunk) takes it in place of a list of positional arguments, so an option and its default are spelled in one
 * place (internal).
 */
export interface ReadSpec {
  /** The public function named in errors (`readPredictions`, `streamPredictions`). */
  readonly fn: string;
  readonly path: string;
  readonly format: PredictionFormat;
  /**
   * The declared kind of the scores. Undefined: JSON, JSON Lines and Parquet take the one key or list column present;
   * CSV and NumPy, which have no such key, read `'probs'` ({@link inputOrProbs}).
   */
  readonly input: ScoreKind | undefined;
  /** CSV and Parquet: the label column (default `'label'`). */
  readonly labelColumn: string;
  /** CSV and Parquet: the prefix of the numbered score columns (default `'p_'`). */
  readonly scorePrefix: string;
  /** Whether the file must hold labels (default true). */
  readonly requireLabels: boolean;
  /** CSV and Parquet: a column of weights; JSON Lines: a key of each line (default none). */
  readonly weightColumn: string | undefined;
  /** JSON and NumPy: read the ensemble members (default false). */
  readonly members: boolean;
  /** NumPy: the labels `.npy` beside the scores. */
  readonly labels: string | undefined;
  /** The declared class names (with their score-column prefix), or none. */
  readonly classes: ClassNames | undefined;
}

/** The score kind of a format without a key that declares it (CSV, NumPy): the declared one, else probabilities. */
export const inputOrProbs = (spec: ReadSpec): ScoreKind => spec.input ?? 'probs';

/** File extensions and the format each is read as (exported for the CLI help test: every one is listed). */
export const FORMATS: Record<string, PredictionFormat> = {
  '.csv': 'csv',
  '.json': 'json',
  '.jsonl': 'jsonl',
  '.ndjson': 'jsonl',
  '.parquet': 'parquet',
  '.npy': 'npy',
};

/** The options of the readers. */
const READ_KEYS = [
  'input',
  'format',
  'labels',
  'labelColumn',
  'scorePrefix',
  'weightColumn',
  'members',
  'requireLabels',
  'classes',
] as const;

/**
 * Validates the path and the reading options of both readers and resolves them into a {@link ReadSpec} (internal;
 * also the parallel chunk reader's, which reads a part of the same file with the same options).
 */
export function checkRead(fn: string, path: string, options: ReadOptions): ReadSpec {
  if (typeof path !== 'string' || path === '') fail('UM_OPTION', fn, 'path', 'be a non-empty string', { value: path });
  checkOptions(fn, options, READ_KEYS, fn === 'streamPredictions' ? ['batchRows'] : []);
  for (const key of ['labels', 'labelColumn', 'scorePrefix'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'string')
      fail('UM_OPTION', fn, `options.${key}`, 'be a string', { value: options[key] });
  }
  for (const key of ['members', 'requireLabels'] as const) {
    if (options[key] !== undefined && typeof options[key] !== 'boolean')
      fail('UM_OPTION', fn, `options.${key}`, 'be true or false', { value: options[key] });
  }
  const format = options.format ?? FORMATS[extname(path).toLowerCase()];
  if (format === undefined) {
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      'has an unknown extension; expected .csv, .json, .jsonl, .parquet or .npy (or give the format)',
    );
  }
  const input = options.input;
  if (input !== undefined && input !== 'probs' && input !== 'logits' && input !== 'logprobs') {
    fail('UM_OPTION', fn, 'options.input', `be one of 'probs', 'logits', 'logprobs'`, { value: input });
  }
  const requireLabels = options.requireLabels !== false;
  if (!['csv', 'json', 'jsonl', 'parquet', 'npy'].includes(format))
    fail('UM_OPTION', fn, 'options.format', `be 'csv', 'json', 'jsonl', 'parquet' or 'npy'`, { value: format });
  if (options.weightColumn !== undefined && typeof options.weightColumn !== 'string')
    fail('UM_OPTION', fn, 'options.weightColumn', 'be a column name', { value: options.weightColumn });
  // an option the format does not read would be ignored: the caller meant something else (a NumPy label array holds
  // class indices, not names, and its scores have no column names; a CSV has no second labels file)
  for (const [key, formats] of Object.entries(OPTION_FORMATS) as [keyof typeof OPTION_FORMATS, readonly string[]][]) {
    if (options[key] !== undefined && !formats.includes(format))
      fail('UM_OPTION', fn, `options.${key}`, `be left out for ${path}: it applies to ${OPTION_USE[key]}`, {
        value: options[key],
      });
  }
  return {
    fn,
    path,
    format,
    input,
    labelColumn: options.labelColumn ?? 'label',
    scorePrefix: options.scorePrefix ?? 'p_',
    requireLabels,
    weightColumn: options.weightColumn,
    members: options.members === true,
    labels: options.labels,
    classes: classNames(fn, options.classes, options.scorePrefix),
  };
}

/**
 * The formats each reading option applies to. An option given for another format is a `UM_OPTION` error rather than
 * ignored (`um metrics preds.csv --labels labels.npy` printed the CSV's own labels' metrics).
 */
export const OPTION_FORMATS = {
  labels: ['npy'],
  labelColumn: ['csv', 'parquet'],
  scorePrefix: ['csv', 'parquet'],
  weightColumn: ['csv', 'jsonl', 'parquet'],
  members: ['json', 'npy'],
  classes: ['csv', 'json', 'jsonl', 'parquet'],
} as const satisfies Partial<Record<(typeof READ_KEYS)[number], readonly PredictionFormat[]>>;

/** What each format-bound option is for, in its error message. */
const OPTION_USE: Record<keyof typeof OPTION_FORMATS, string> = {
  labels: 'NumPy scores (a .npy of labels beside a .npy of scores)',
  labelColumn: 'CSV and Parquet files (JSON and JSON Lines read the key label)',
  scorePrefix: 'CSV and Parquet files (the score columns)',
  weightColumn: 'CSV, JSON Lines and Parquet files',
  members: 'JSON and NumPy files (ensemble members)',
  classes: 'CSV, JSON, JSON Lines and Parquet files (NumPy labels are class indices)',
};
