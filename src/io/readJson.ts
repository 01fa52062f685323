import type { ScoreKind } from '../input/types.js';
import { fileFail, readWhole } from './fileError.js';
import { decodeUtf8 } from './textInput.js';
import type { PredictionData } from './types.js';
import { classOf, type ClassNames } from './classNames.js';
import type { ReadSpec } from './readSpec.js';

const KEYS: readonly ScoreKind[] = ['probs', 'logits', 'logprobs'];
const MEMBER_KEYS: Record<ScoreKind, string> = {
  probs: 'member_probs',
  logits: 'member_logits',
  logprobs: 'member_logprobs',
};

/** 1-based line and column of a character offset. */
function lineColumn(text: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let i = 0; i < offset && i < text.length; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      start = i + 1;
    }
  }
  return { line, column: offset - start + 1 };
}

/**
 * The `labels` array as numbers (validated as labels later by the metrics, which report their position), or as
 * class indices of the declared names.
 */
function readLabels(
  fn: string,
  path: string,
  obj: Record<string, unknown>,
  requireLabels: boolean,
  classes: ClassNames | undefined,
): Float64Array {
  const labels = obj.labels;
  if (labels === undefined && !requireLabels) return new Float64Array(0);
  if (!Array.isArray(labels)) fileFail('UM_FILE_FORMAT', fn, path, 'must have a "labels" array');
  const lab = new Float64Array(labels.length);
  for (let i = 0; i < labels.length; i++) {
    const v: unknown = labels[i];
    if (classes !== undefined) {
      lab[i] = classOf(fn, path, classes, v, `"labels[${i}]"`);
      continue;
    }
    if (typeof v !== 'number')
      fileFail(
        'UM_FILE_FORMAT',
        fn,
        path,
        `"labels[${i}]" must be a number${typeof v === 'string' ? ' (string labels need options.classes)' : ''}`,
        {},
        { value: v },
      );
    lab[i] = v;
  }
  return lab;
}

/** Copies `rows` (n arrays of c numbers; `name` is its JSON path for messages) into `out` from `offset`. */
function readRows(
  fn: string,
  path: string,
  name: string,
  rows: unknown[],
  c: number,
  out: Float64Array,
  offset: number,
): void {
  for (let i = 0; i < rows.length; i++) {
    const row: unknown = rows[i];
    if (!Array.isArray(row) || row.length !== c) {
      fileFail(
        'UM_FILE_FORMAT',
        fn,
        path,
        `"${name}[${i}]" must be an array of ${c} numbers like row 0`,
        {},
        { value: row },
      );
    }
    for (let k = 0; k < c; k++) {
      const v: unknown = row[k];
      if (typeof v !== 'number')
        fileFail('UM_FILE_FORMAT', fn, path, `"${name}[${i}][${k}]" must be a number`, {}, { value: v });
      out[offset + i * c + k] = v;
    }
  }
}

/**
 * Reads `{ labels: int[N], probs | logits | logprobs: number[N][C] }`, or ensemble members
 * `{ labels, member_probs | member_logits | member_logprobs: number[S][N][C] }`, from a JSON file. The key declares
 * the kind: `input` selects it; without `input` the file must hold exactly one kind, or `probs`.
 */
export async function readJson(spec: ReadSpec): Promise<PredictionData> {
  const { fn, path, input, requireLabels, classes } = spec;
  const preferMembers = spec.members;
  // a regular file (a FIFO or /dev/zero would be read without bound), UTF-8, a leading BOM dropped
  const text = decodeUtf8(fn, path, await readWhole(fn, path));
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    const pos = /position (\d+)/.exec(message);
    const lc = /line (\d+) column (\d+)/.exec(message);
    const place =
      lc !== null
        ? { line: Number(lc[1]), column: Number(lc[2]) }
        : pos !== null
          ? lineColumn(text, Number(pos[1]))
          : {};
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `is not valid JSON (${message.replace(/ in JSON at position \d+.*$/, '').replace(/\s*\(line \d+ column \d+\)$/, '')})`,
      place,
    );
  }
  if (doc === null || typeof doc !== 'object' || Array.isArray(doc)) {
    fileFail('UM_FILE_FORMAT', fn, path, 'must hold an object { labels, probs | logits | logprobs }');
  }
  const obj = doc as Record<string, unknown>;
  const singles = KEYS.filter((k) => k in obj);
  const memberKinds = KEYS.filter((k) => MEMBER_KEYS[k] in obj);
  if (memberKinds.length > 0 && (singles.length === 0 || preferMembers))
    return readMembers(fn, path, obj, input, memberKinds, requireLabels, classes);
  if (preferMembers) fileFail('UM_FILE_FORMAT', fn, path, 'has no member_probs, member_logits or member_logprobs key');
  const present = singles;
  let key: ScoreKind;
  if (input !== undefined) {
    if (!(input in obj))
      fileFail(
        'UM_FILE_FORMAT',
        fn,
        path,
        `has no "${input}" key (declared input ${input}; present: ${present.join(', ') || 'none'})`,
      );
    key = input;
  } else if (present.length === 1) key = present[0] as ScoreKind;
  else if (present.includes('probs')) key = 'probs';
  else
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      present.length === 0
        ? 'must have a "probs", "logits" or "logprobs" key'
        : `has ${present.join(' and ')}; choose one with --input`,
    );
  const lab = readLabels(fn, path, obj, requireLabels, classes);
  const rows = obj[key];
  if (!Array.isArray(rows)) fileFail('UM_FILE_FORMAT', fn, path, `"${key}" must be an array of rows`);
  const n = rows.length;
  if (n === 0) fileFail('UM_EMPTY', fn, path, `"${key}" has no rows`);
  const first: unknown = rows[0];
  if (!Array.isArray(first)) fileFail('UM_FILE_FORMAT', fn, path, `"${key}[0]" must be an array of ${key}`);
  const c = first.length;
  const scores = new Float64Array(n * c);
  readRows(fn, path, key, rows, c, scores, 0);
  return {
    path,
    format: 'json',
    input: key,
    n,
    numClasses: c,
    labels: lab,
    hasLabels: 'labels' in obj,
    scores,
    ignoredColumns: Object.keys(obj).filter((k) => k !== 'labels' && k !== key),
    locate(row, column, argument) {
      if (argument === 'labels') return `${path}: "labels[${row}]"`;
      return column === undefined ? `${path}: "${key}[${row}]"` : `${path}: "${key}[${row}][${column}]"`;
    },
  };
}

/** Reads stacked member outputs [S][N][C] (internal). */
function readMembers(
  fn: string,
  path: string,
  obj: Record<string, unknown>,
  input: ScoreKind | undefined,
  kinds: ScoreKind[],
  requireLabels: boolean,
  classes: ClassNames | undefined,
): PredictionData {
  let kind: ScoreKind;
  if (input !== undefined) {
    if (!kinds.includes(input))
      fileFail('UM_FILE_FORMAT', fn, path, `has no "${MEMBER_KEYS[input]}" key (declared input ${input})`);
    kind = input;
  } else if (kinds.length === 1) kind = kinds[0] as ScoreKind;
  else if (kinds.includes('probs')) kind = 'probs';
  else
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `has ${kinds.map((k) => MEMBER_KEYS[k]).join(' and ')}; choose one with --input`,
    );
  const key = MEMBER_KEYS[kind];
  const lab = readLabels(fn, path, obj, requireLabels, classes);
  const stack = obj[key];
  if (!Array.isArray(stack) || stack.length === 0)
    fileFail('UM_FILE_FORMAT', fn, path, `"${key}" must be a non-empty array of members [S][N][C]`);
  const s = stack.length;
  const first: unknown = stack[0];
  if (!Array.isArray(first) || first.length === 0 || !Array.isArray(first[0]))
    fileFail('UM_FILE_FORMAT', fn, path, `"${key}[0]" must be a member matrix [N][C]`);
  const n = first.length;
  const c = (first[0] as unknown[]).length;
  const members = new Float64Array(s * n * c);
  for (let m = 0; m < s; m++) {
    const mem: unknown = stack[m];
    if (!Array.isArray(mem) || mem.length !== n)
      fileFail('UM_FILE_FORMAT', fn, path, `"${key}[${m}]" must have ${n} rows like member 0`);
    readRows(fn, path, `${key}[${m}]`, mem, c, members, m * n * c);
  }
  return {
    path,
    format: 'json',
    input: kind,
    n,
    numClasses: c,
    labels: lab,
    hasLabels: 'labels' in obj,
    members,
    numMembers: s,
    ignoredColumns: Object.keys(obj).filter((k) => k !== 'labels' && k !== key),
    locate(row, column, argument, member) {
      if (argument === 'labels') return `${path}: "labels[${row}]"`;
      const at = `${key}[${member ?? 0}][${row}]`;
      return column === undefined ? `${path}: "${at}"` : `${path}: "${at}[${column}]"`;
    },
  };
}
