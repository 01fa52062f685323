import { createReadStream } from 'node:fs';
import { open } from 'node:fs/promises';
import { createInterface } from 'node:readline';
import type { ScoreKind } from '../input/types.js';
import { fileFail, readFail } from './fileError.js';
import type { PredictionData } from './types.js';

const KEYS: readonly ScoreKind[] = ['probs', 'logits', 'logprobs'];

/**
 * Reads JSON Lines: one object `{label, probs | logits | logprobs}` per line (blank lines skipped). Every line uses
 * the same key (the declared `input`, or the one key present) and the same number of classes.
 */
export async function readJsonl(fn: string, path: string, input: ScoreKind | undefined, requireLabels: boolean): Promise<PredictionData> {
  try {
    await (await open(path, 'r')).close();
  } catch (error) {
    readFail(fn, path, error);
  }
  const stream = createReadStream(path, { encoding: 'utf8' });
  const lines = createInterface({ input: stream, crlfDelay: Infinity });
  let key: ScoreKind | undefined = input;
  let c = -1;
  let hasLabels: boolean | undefined;
  const labels: number[] = [];
  const scores: number[] = [];
  const lineOf: number[] = [];
  let lineNo = 0;
  try {
    for await (const text of lines) {
      lineNo++;
      if (text.trim() === '') continue;
      let obj: unknown;
      try {
        obj = JSON.parse(text);
      } catch (error) {
        fileFail('UM_FILE_FORMAT', fn, path, `is not valid JSON (${error instanceof Error ? error.message.replace(/ in JSON at position \d+.*$/, '') : String(error)})`, { line: lineNo });
      }
      if (obj === null || typeof obj !== 'object' || Array.isArray(obj)) fileFail('UM_FILE_FORMAT', fn, path, 'must hold an object {label, probs | logits | logprobs}', { line: lineNo });
      const o = obj as Record<string, unknown>;
      if (key === undefined) {
        const present = KEYS.filter((k) => k in o);
        if (present.length !== 1) {
          fileFail('UM_FILE_FORMAT', fn, path, present.length === 0 ? 'must have a "probs", "logits" or "logprobs" key' : `has ${present.join(' and ')}; choose one with --input`, { line: lineNo });
        }
        key = present[0] as ScoreKind;
      }
      const row = o[key];
      if (!Array.isArray(row)) fileFail('UM_FILE_FORMAT', fn, path, `"${key}" must be an array of numbers (like every line)`, { line: lineNo }, { value: row });
      if (c < 0) c = row.length;
      if (row.length !== c) fileFail('UM_FILE_FORMAT', fn, path, `"${key}" must have ${c} numbers like the first line`, { line: lineNo }, { value: row.length });
      for (let k = 0; k < c; k++) {
        const v: unknown = row[k];
        if (typeof v !== 'number') fileFail('UM_FILE_FORMAT', fn, path, `"${key}[${k}]" must be a number`, { line: lineNo }, { value: v });
        scores.push(v);
      }
      const lab = o.label;
      if (hasLabels === undefined) hasLabels = lab !== undefined;
      if (hasLabels || requireLabels) {
        if (typeof lab !== 'number') fileFail('UM_FILE_FORMAT', fn, path, '"label" must be a number', { line: lineNo }, { value: lab });
        labels.push(lab);
      }
      lineOf.push(lineNo);
    }
  } finally {
    stream.destroy();
  }
  if (lineOf.length === 0 || key === undefined) fileFail('UM_EMPTY', fn, path, 'has no data lines');
  const k = key;
  return {
    path,
    format: 'jsonl',
    input: k,
    n: lineOf.length,
    numClasses: c,
    labels: Float64Array.from(labels),
    hasLabels: hasLabels === true,
    scores: Float64Array.from(scores),
    locate(row, column, argument) {
      const at = `${path}: line ${lineOf[row] ?? '?'}`;
      if (argument === 'labels') return `${at}, "label"`;
      return column === undefined ? at : `${at}, "${k}[${column}]"`;
    },
  };
}
