import { stringify } from 'csv-stringify/sync';
import type { TopBinningPrediction } from '../calibrate/applyTopBinning.js';
import { UMError } from '../errors/UMError.js';
import type { ProbMatrix } from '../input/types.js';
import { fileFail } from './fileError.js';
import { parseNumber } from './parseNumber.js';
import { lineEnds } from './textInput.js';
import type { PredictionData } from './types.js';

/**
 * What a calibrator produced, as cells (internal): calibrated probabilities `replace` the score columns (as many as
 * the input has: one, P(y = 1), for a binary input), Top-k binning predictions are `append`ed as new columns.
 */
export interface CalibratedColumns {
  mode: 'replace' | 'append';
  /** Names of the columns written when a file is made from scratch (`p_0 …`), or of the appended columns. */
  names: readonly string[];
  n: number;
  value(row: number, j: number): number;
}

/** Output chunks are about this many characters (written one after another). */
const CHUNK_CHARS = 1 << 20;

/** The calibrated values of a result, shaped like the input's `scoreColumns` score columns (internal). */
export function calibratedColumns(result: ProbMatrix | TopBinningPrediction, scoreColumns: number): CalibratedColumns {
  if (!('kind' in result)) {
    const cols = [result.predicted, result.probability, result.bin];
    return {
      mode: 'append',
      names: ['predicted', 'p_top', 'bin'],
      n: result.probability.length,
      value: (i, j) => (cols[j] as ArrayLike<number>)[i] as number,
    };
  }
  const c = result.numClasses;
  // a binary input holds P(y = 1) only: write it back the same way, so the output reads like the input
  const binary = scoreColumns === 1 && c === 2;
  const width = binary ? 1 : c;
  return {
    mode: 'replace',
    names: Array.from({ length: width }, (_, k) => `p_${k}`),
    n: result.n,
    value: binary ? (i) => result.data[i * 2 + 1] as number : (i, k) => result.data[i * c + k] as number,
  };
}

/** Shortest text that reads back as the same double (`NaN`, `Infinity` as our readers read them). */
function numberText(v: number): string {
  return String(v);
}

/**
 * A new CSV (from a JSON, NumPy or Parquet input): the label column (under its name) and the calibrated columns.
 * With class names, labels are written as the names and a calibrated column of each class is named after it (as
 * the reader takes them back with the same names).
 */
export function calibratedTable(
  values: CalibratedColumns,
  labels?: ArrayLike<number>,
  labelColumn = 'label',
  classes?: readonly string[],
): string {
  const withLabels = labels !== undefined && labels.length > 0;
  const names =
    classes !== undefined && values.mode === 'replace' && values.names.length === classes.length
      ? classes
      : values.names;
  const rows: (string | number)[][] = [[...(withLabels ? [labelColumn] : []), ...names]];
  for (let i = 0; i < values.n; i++) {
    const y = withLabels ? (labels[i] as number) : 0;
    const row: (string | number)[] = withLabels ? [classes?.[y] ?? y] : [];
    for (let j = 0; j < values.names.length; j++) row.push(values.value(i, j));
    rows.push(row);
  }
  return stringify(rows, { cast: { number: numberText } });
}

/** One CSV record: raw byte spans of its fields (quotes and surrounding blanks included) and where it ends. */
interface CsvRecord {
  fields: [number, number][];
  /** Offset of the record's line end (or of the end of the file). */
  end: number;
}

const COMMA = 44;
const QUOTE = 34;
const CR = 13;
const LF = 10;

/** Whether the first line end outside quotes is a lone `\r` (old Mac files; the parser detects it the same way). */
function lonelyCr(bytes: Uint8Array, from: number): boolean {
  let quoted = false;
  for (let i = from; i < bytes.length; i++) {
    const b = bytes[i];
    if (b === QUOTE) quoted = !quoted;
    else if (!quoted && b === LF) return false;
    else if (!quoted && b === CR) return bytes[i + 1] !== LF;
  }
  return false;
}

/**
 * The records of a CSV as byte spans (internal) — the same records the reader's parser sees in a file it accepted
 * (RFC 4180, `""` inside quotes, blank lines skipped, `\n`, `\r\n` or — detected from the first — `\r` line ends, a
 * leading BOM skipped).
 */
function* csvRecords(bytes: Uint8Array): Generator<CsvRecord> {
  const n = bytes.length;
  let pos = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
  const cr = lonelyCr(bytes, pos);
  // length of the line end at q (0: none)
  const end = (q: number): number =>
    cr ? (bytes[q] === CR ? 1 : 0) : bytes[q] === LF ? 1 : bytes[q] === CR && bytes[q + 1] === LF ? 2 : 0;
  while (pos < n) {
    const blank = end(pos);
    if (blank > 0) {
      pos += blank;
      continue;
    }
    const fields: [number, number][] = [];
    for (;;) {
      const start = pos;
      let q = pos;
      while (bytes[q] === 32 || bytes[q] === 9) q++;
      if (bytes[q] === QUOTE) {
        q++;
        for (;;) {
          if (q >= n) break;
          if (bytes[q] === QUOTE) {
            if (bytes[q + 1] === QUOTE) q += 2;
            else {
              q++;
              break;
            }
          } else q++;
        }
      }
      while (q < n && bytes[q] !== COMMA && end(q) === 0) q++;
      pos = q;
      fields.push([start, pos]);
      if (bytes[pos] === COMMA) {
        pos++;
        continue;
      }
      break;
    }
    const last = pos;
    pos += end(pos);
    yield { fields, end: last };
  }
}

/** The value of a raw CSV field: blanks trimmed, quotes removed, `""` → `"`. */
function fieldText(bytes: Buffer, [a, b]: [number, number]): string {
  const raw = bytes.toString('utf8', a, b).replace(/^[ \t]+|[ \t]+$/g, '');
  return raw.startsWith('"') && raw.endsWith('"') && raw.length >= 2 ? raw.slice(1, -1).replace(/""/g, '"') : raw;
}

/** Same double, NaN equal to NaN. */
function same(a: number | undefined, b: number | undefined): boolean {
  return a === b || (a !== a && b !== b);
}

/** Collects output text in chunks of about {@link CHUNK_CHARS} characters. */
class Chunks {
  readonly out: string[] = [];
  private parts: string[] = [];
  private size = 0;
  push(text: string): void {
    this.parts.push(text);
    this.size += text.length;
    if (this.size >= CHUNK_CHARS) this.flush();
  }
  flush(): string[] {
    if (this.parts.length > 0) this.out.push(this.parts.join(''));
    this.parts = [];
    this.size = 0;
    return this.out;
  }
}

/** Stops a rewrite whose input does not match what was read (changed in between, or a layout not understood). */
function mismatch(fn: string, path: string, what: string): never {
  fileFail(
    'UM_FILE_FORMAT',
    fn,
    path,
    `${what}; it changed since it was read, or its layout cannot be rewritten in place`,
  );
}

/**
 * The input CSV with the calibrated values (internal): every byte of it — header, other columns, quoting, blank
 * lines, line ends, BOM — is copied, except the score cells (`replace`), or with the new columns added at the end of
 * each record (`append`). The records are checked against the data read first (count and score values).
 */
export function rewriteCsv(
  fn: string,
  path: string,
  bytes: Buffer,
  data: PredictionData,
  values: CalibratedColumns,
): string[] {
  const out = new Chunks();
  let at = 0;
  const copy = (to: number) => {
    if (to > at) out.push(bytes.toString('utf8', at, to));
    at = to;
  };
  const records = csvRecords(bytes);
  const head = records.next();
  if (head.done === true) mismatch(fn, path, 'has no header');
  const header = head.value.fields.map((f) => fieldText(bytes, f));
  const scoreIndex = (data.columns ?? []).map((name) => header.indexOf(name));
  if (scoreIndex.length !== data.numClasses || scoreIndex.some((j) => j < 0))
    mismatch(fn, path, 'has other score columns than were read');
  // cells are copied left to right: score columns in the order they stand, whatever their class
  const byPosition = scoreIndex.map((j, k) => [j, k] as const).sort((x, y) => x[0] - y[0]);
  if (values.mode === 'append') {
    const taken = values.names.filter((name) => header.includes(name));
    if (taken.length > 0)
      throw new UMError(
        'UM_OPTION',
        `${fn}: ${path}: already has column${taken.length === 1 ? '' : 's'} ${taken.join(', ')}; the Top-k binning output adds ${values.names.join(', ')} — rename them first`,
        { fn, argument: 'file', file: path },
      );
    copy(head.value.end);
    out.push(`,${values.names.join(',')}`);
  }
  const scores = data.scores as Float64Array;
  const c = data.numClasses;
  let row = 0;
  for (const r of records) {
    if (row >= data.n) mismatch(fn, path, `has more than the ${data.n} rows read`);
    for (let k = 0; k < c; k++) {
      const span = r.fields[scoreIndex[k] as number];
      if (span === undefined || !same(parseNumber(fieldText(bytes, span)), scores[row * c + k]))
        mismatch(fn, path, `row ${row} differs from what was read`);
    }
    if (values.mode === 'replace') {
      for (const [j, k] of byPosition) {
        const [a, b] = r.fields[j] as [number, number];
        copy(a);
        out.push(numberText(values.value(row, k)));
        at = b;
      }
    } else {
      copy(r.end);
      let cells = '';
      for (let j = 0; j < values.names.length; j++) cells += `,${numberText(values.value(row, j))}`;
      out.push(cells);
    }
    row++;
  }
  if (row !== data.n) mismatch(fn, path, `has ${row} rows, ${data.n} were read`);
  copy(bytes.length);
  return out.flush();
}

/** A top-level member of a JSON object text: its key, the key's span and the value's span. */
interface Member {
  key: string;
  keyStart: number;
  keyEnd: number;
  valueStart: number;
  valueEnd: number;
}

function skipBlank(t: string, i: number): number {
  while (i < t.length && (t[i] === ' ' || t[i] === '\t' || t[i] === '\r' || t[i] === '\n')) i++;
  return i;
}

function skipString(t: string, i: number): number {
  let j = i + 1;
  while (j < t.length && t[j] !== '"') j += t[j] === '\\' ? 2 : 1;
  return j + 1;
}

function skipValue(t: string, i: number): number {
  if (t[i] === '"') return skipString(t, i);
  if (t[i] === '{' || t[i] === '[') {
    let depth = 0;
    let j = i;
    do {
      const ch = t[j];
      if (ch === '"') {
        j = skipString(t, j);
        continue;
      }
      if (ch === '{' || ch === '[') depth++;
      else if (ch === '}' || ch === ']') depth--;
      j++;
    } while (depth > 0 && j < t.length);
    return j;
  }
  let j = i;
  while (j < t.length && !',}] \t\r\n'.includes(t[j] as string)) j++;
  return j;
}

/** The members of a JSON object text that `JSON.parse` accepted, with their spans (internal). */
function jsonMembers(t: string): { members: Member[]; close: number } {
  const members: Member[] = [];
  let i = skipBlank(t, 0) + 1; // past '{'
  i = skipBlank(t, i);
  while (t[i] === '"') {
    const keyStart = i;
    const keyEnd = skipString(t, i);
    const valueStart = skipBlank(t, skipBlank(t, keyEnd) + 1);
    const valueEnd = skipValue(t, valueStart);
    members.push({ key: JSON.parse(t.slice(keyStart, keyEnd)) as string, keyStart, keyEnd, valueStart, valueEnd });
    i = skipBlank(t, valueEnd);
    if (t[i] === ',') i = skipBlank(t, i + 1);
  }
  return { members, close: i };
}

/**
 * The input JSON Lines with the calibrated values (internal): each line and its line end is copied byte for byte
 * except the value of its score key, which becomes the calibrated probabilities under `"probs"` (`replace`; a
 * `logits` key is renamed, since the key declares the kind), or with `"predicted"`, `"p_top"`, `"bin"` added at the
 * end (`append`).
 */
export function rewriteJsonl(
  fn: string,
  path: string,
  bytes: Buffer,
  data: PredictionData,
  values: CalibratedColumns,
): string[] {
  const out = new Chunks();
  const key = data.input;
  const scores = data.scores as Float64Array;
  const c = data.numClasses;
  let row = 0;
  let start = 0;
  let lineNo = 0;
  const nextEnd = lineEnds(bytes);
  while (start < bytes.length) {
    // lines end as the reader splits them: \n, \r\n or \r
    const found = nextEnd(start);
    const end = found < 0 ? bytes.length : found;
    const tail =
      end === bytes.length ? '' : bytes[end] === CR && bytes[end + 1] === LF ? '\r\n' : bytes[end] === CR ? '\r' : '\n';
    lineNo++;
    const skip = lineNo === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    const line = bytes.toString('utf8', start + skip, end);
    const keep = bytes.toString('utf8', start, start + skip);
    start = end + tail.length;
    if (line.trim() === '') {
      out.push(keep + line + tail);
      continue;
    }
    if (row >= data.n) mismatch(fn, path, `has more than the ${data.n} data lines read`);
    const { members, close } = jsonMembers(line);
    const m = members.filter((x) => x.key === key).pop(); // JSON.parse keeps the last of repeated keys
    const given = m === undefined ? undefined : (JSON.parse(line.slice(m.valueStart, m.valueEnd)) as unknown);
    if (
      m === undefined ||
      !Array.isArray(given) ||
      given.length !== c ||
      given.some((v, k) => !same(v as number, scores[row * c + k]))
    )
      mismatch(fn, path, `line ${lineNo} differs from what was read`);
    const cells = (j0: number, count: number) => {
      const parts: string[] = [];
      for (let j = j0; j < j0 + count; j++) {
        const v = values.value(row, j);
        if (!Number.isFinite(v))
          throw new UMError(
            'UM_CALIBRATOR',
            `${fn}: ${path}: line ${lineNo}: the calibrated value ${String(v)} cannot be written as JSON`,
            { fn, file: path, line: lineNo },
          );
        parts.push(numberText(v));
      }
      return parts;
    };
    if (values.mode === 'replace') {
      const probs = members.filter((x) => x.key === 'probs');
      if (key !== 'probs' && probs.length > 0) {
        throw new UMError(
          'UM_OPTION',
          `${fn}: ${path}: line ${lineNo}: has both "${key}" and "probs"; the calibrated "probs" would replace the given ones — remove them first`,
          { fn, argument: 'file', file: path, line: lineNo },
        );
      }
      out.push(
        `${keep}${line.slice(0, m.keyStart)}${key === 'probs' ? line.slice(m.keyStart, m.keyEnd) : '"probs"'}${line.slice(m.keyEnd, m.valueStart)}[${cells(0, values.names.length).join(',')}]${line.slice(m.valueEnd)}${tail}`,
      );
    } else {
      const taken = values.names.filter((name) => members.some((x) => x.key === name));
      if (taken.length > 0)
        throw new UMError(
          'UM_OPTION',
          `${fn}: ${path}: line ${lineNo}: already has ${taken.map((t) => `"${t}"`).join(', ')}; the Top-k binning output adds ${values.names.join(', ')} — rename them first`,
          { fn, argument: 'file', file: path, line: lineNo },
        );
      const v = cells(0, values.names.length);
      const added = values.names.map((name, j) => `"${name}":${v[j] as string}`).join(',');
      out.push(`${keep}${line.slice(0, close)}${members.length > 0 ? ',' : ''}${added}${line.slice(close)}${tail}`);
    }
    row++;
  }
  if (row !== data.n) mismatch(fn, path, `has ${row} data lines, ${data.n} were read`);
  return out.flush();
}
