import type { ScoreKind } from '../input/types.js';
import { fileFail } from './fileError.js';
import { fileLineRuns, jsonObjectLine } from './textInput.js';
import { BATCH_ROWS, collect, type PredictionBatch } from './batches.js';
import type { PredictionData } from './types.js';
import { classOf } from './classNames.js';
import type { ReadSpec } from './readSpec.js';

const KEYS: readonly ScoreKind[] = ['probs', 'logits', 'logprobs'];

/**
 * Reads JSON Lines: one object `{label, probs | logits | logprobs}` per line (blank lines skipped). Every line uses
 * the same key (the declared `input`, or the one key present) and the same number of classes. Lines are UTF-8 (a BOM
 * before the first is dropped) of at most `MAX_RECORD_BYTES`.
 */
export function readJsonl(spec: ReadSpec): Promise<PredictionData> {
  return collect(streamJsonl(spec));
}

/**
 * Streams JSON Lines in batches of `batchRows` lines (constant memory); a bad line stops it naming the line. With
 * class names, each "label" is a name (or a number whose text is one).
 */
export async function* streamJsonl(spec: ReadSpec, batchRows = BATCH_ROWS): AsyncGenerator<PredictionBatch> {
  const { fn, path, input, requireLabels, classes } = spec;
  const weightKey = spec.weightColumn;
  let key: ScoreKind | undefined = input;
  let c = -1;
  let hasLabels: boolean | undefined;
  let labels: number[] = [];
  let scores: number[] = [];
  let weights: number[] = [];
  let lineOf: number[] = [];
  let firstRow = 0;
  const batch = (): PredictionBatch => {
    const b = jsonlBatch(
      path,
      key as ScoreKind,
      c,
      hasLabels === true,
      labels,
      scores,
      weightKey === undefined ? undefined : weights,
      lineOf,
      firstRow,
    );
    firstRow += lineOf.length;
    labels = [];
    scores = [];
    weights = [];
    lineOf = [];
    return b;
  };
  // a run of lines per read (one await per read, not per line)
  for await (const run of fileLineRuns(fn, path)) {
    for (const [j, bytes] of run.lines.entries()) {
      const lineNo = run.first + j;
      const text = bytes.toString('utf8');
      if (text.trim() === '') continue;
      const o = jsonObjectLine(fn, path, text, lineNo, '{label, probs | logits | logprobs}');
      if (key === undefined) {
        const present = KEYS.filter((k) => k in o);
        if (present.length !== 1) {
          fileFail(
            'UM_FILE_FORMAT',
            fn,
            path,
            present.length === 0
              ? 'must have a "probs", "logits" or "logprobs" key'
              : `has ${present.join(' and ')}; choose one with --input`,
            { line: lineNo },
          );
        }
        key = present[0] as ScoreKind;
      }
      const row = o[key];
      if (!Array.isArray(row))
        fileFail(
          'UM_FILE_FORMAT',
          fn,
          path,
          `"${key}" must be an array of numbers (like every line)`,
          { line: lineNo },
          { value: row },
        );
      if (c < 0) c = row.length;
      if (row.length !== c)
        fileFail(
          'UM_FILE_FORMAT',
          fn,
          path,
          `"${key}" must have ${c} numbers like the first line`,
          { line: lineNo },
          { value: row.length },
        );
      for (let k = 0; k < c; k++) {
        const v: unknown = row[k];
        if (typeof v !== 'number')
          fileFail('UM_FILE_FORMAT', fn, path, `"${key}[${k}]" must be a number`, { line: lineNo }, { value: v });
        scores.push(v);
      }
      const lab = o.label;
      if (hasLabels === undefined) hasLabels = lab !== undefined;
      if (hasLabels || requireLabels) {
        if (classes !== undefined) labels.push(classOf(fn, path, classes, lab, `line ${lineNo}, "label"`));
        else {
          if (typeof lab !== 'number')
            fileFail(
              'UM_FILE_FORMAT',
              fn,
              path,
              `"label" must be a number${typeof lab === 'string' ? ' (string labels need options.classes)' : ''}`,
              { line: lineNo },
              { value: lab },
            );
          labels.push(lab);
        }
      }
      if (weightKey !== undefined) {
        const wv = o[weightKey];
        if (typeof wv !== 'number')
          fileFail(
            'UM_FILE_FORMAT',
            fn,
            path,
            `${JSON.stringify(weightKey)} must be a number`,
            { line: lineNo },
            { value: wv },
          );
        weights.push(wv);
      }
      lineOf.push(lineNo);
      if (lineOf.length >= batchRows) yield batch();
    }
  }
  if ((firstRow === 0 && lineOf.length === 0) || key === undefined) fileFail('UM_EMPTY', fn, path, 'has no data lines');
  if (lineOf.length > 0) yield batch();
}

/** One batch of JSON Lines as `PredictionData` (internal). */
function jsonlBatch(
  path: string,
  k: ScoreKind,
  c: number,
  hasLabels: boolean,
  labels: number[],
  scores: number[],
  weights: number[] | undefined,
  lineOf: number[],
  firstRow: number,
): PredictionBatch {
  return {
    path,
    format: 'jsonl',
    input: k,
    n: lineOf.length,
    firstRow,
    numClasses: c,
    labels: Float64Array.from(labels),
    hasLabels,
    scores: Float64Array.from(scores),
    ...(weights === undefined ? {} : { weights: Float64Array.from(weights) }),
    locate(row, column, argument) {
      const at = `${path}: line ${lineOf[row] ?? '?'}`;
      if (argument === 'labels') return `${at}, "label"`;
      return column === undefined ? at : `${at}, "${k}[${column}]"`;
    },
  };
}
