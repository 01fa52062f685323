import { CsvError, parse } from 'csv-parse';
import type { ScoreKind } from '../input/types.js';
import { describePlace, fileFail, openInput, readFail } from './fileError.js';
import { MAX_RECORD_BYTES, checkedText } from './textInput.js';
import { parseNumber } from './parseNumber.js';
import { BATCH_ROWS, collect, type PredictionBatch } from './batches.js';
import type { PredictionData } from './types.js';

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** A byte range of a CSV holding whole lines, with the header and the position of its first line (parallel reads). */
export interface CsvRange {
  start: number;
  end: number;
  header: string[];
  /** 1-based line number of the range's first line. */
  firstLine: number;
  /** Index of its first data row. */
  firstRow: number;
}

/** Reads a CSV of predictions: a header with a label column and score columns `<prefix>0 … <prefix>{C−1}`. */
export function readCsv(fn: string, path: string, input: ScoreKind, labelColumn: string, scorePrefix: string, requireLabels: boolean, weightColumn?: string): Promise<PredictionData> {
  return collect(streamCsv(fn, path, input, labelColumn, scorePrefix, requireLabels, weightColumn));
}

/**
 * Streams a CSV of predictions in batches of `batchRows` rows (constant memory): a header with a label column, score
 * columns `<prefix>0 … <prefix>{C−1}` and optionally a weight column. A malformed row anywhere stops the stream with
 * a `UM_FILE_FORMAT` error naming its line and column.
 */
export async function* streamCsv(
  fn: string,
  path: string,
  input: ScoreKind,
  labelColumn: string,
  scorePrefix: string,
  requireLabels: boolean,
  weightColumn?: string,
  batchRows = BATCH_ROWS,
  range?: CsvRange,
): AsyncGenerator<PredictionBatch> {
  const handle = await openInput(fn, path, true);
  const source = range === undefined ? handle.createReadStream({ autoClose: false }) : handle.createReadStream({ start: range.start, end: range.end - 1, autoClose: false });
  // the field count is checked below, where the header is known (the parser would report it before we see the header)
  const parser = parse({ info: true, skip_empty_lines: true, trim: true, bom: range === undefined, relax_column_count: true, max_record_size: MAX_RECORD_BYTES });
  const lineOffset = range === undefined ? 0 : range.firstLine - 1;
  const text = checkedText(fn, path, source, range?.firstLine ?? 1, range?.start ?? 0);
  // pipe() does not forward errors; without this a failing read would leave the parser waiting forever
  text.on('error', (error) => parser.destroy(error));
  text.pipe(parser);
  let header: string[] | undefined;
  let labelIndex = -1;
  let weightIndex = -1;
  const scoreIndex: number[] = [];
  let labels: number[] = [];
  let scores: number[] = [];
  let weights: number[] = [];
  let lines: number[] = [];
  let firstRow = range?.firstRow ?? 0;
  const batch = (): PredictionBatch => {
    const b = makeBatch(path, input, header as string[], scoreIndex, labelIndex, labelColumn, weightIndex, labels, scores, weights, lines, firstRow);
    firstRow += lines.length;
    labels = [];
    scores = [];
    weights = [];
    lines = [];
    return b;
  };
  const useHeader = (record: string[], info: { lines: number }): void => {
    header = record;
    const once = (name: string, what: string): void => {
      const j = record.indexOf(name);
      if (j >= 0 && record.indexOf(name, j + 1) >= 0) {
        fileFail('UM_FILE_FORMAT', fn, path, `the ${what} column ${JSON.stringify(name)} appears twice (columns ${j + 1} and ${record.indexOf(name, j + 1) + 1}); which one is meant is ambiguous`, { line: info.lines, column: record.indexOf(name, j + 1) + 1 });
      }
    };
    once(labelColumn, 'label');
    if (weightColumn !== undefined) once(weightColumn, 'weight');
    labelIndex = record.indexOf(labelColumn);
    if (labelIndex < 0 && requireLabels) {
      fileFail('UM_FILE_FORMAT', fn, path, `the header must have a ${JSON.stringify(labelColumn)} column (choose another with --label-column)`, { line: info.lines }, { value: record.join(',') });
    }
    if (weightColumn !== undefined) {
      weightIndex = record.indexOf(weightColumn);
      if (weightIndex < 0) fileFail('UM_FILE_FORMAT', fn, path, `the header must have the weight column ${JSON.stringify(weightColumn)}`, { line: info.lines }, { value: record.join(',') });
    }
    const pattern = new RegExp(`^${escapeRegExp(scorePrefix)}(\\d+)$`);
    const found = new Map<number, number>();
    record.forEach((name, j) => {
      const m = pattern.exec(name);
      if (m !== null) {
        const k = Number(m[1]);
        if (found.has(k)) fileFail('UM_FILE_FORMAT', fn, path, `score column ${JSON.stringify(name)} appears twice`, { line: info.lines, column: j + 1 });
        found.set(k, j);
      }
    });
    if (found.size === 0) {
      fileFail('UM_FILE_FORMAT', fn, path, `the header must have score columns ${scorePrefix}0, ${scorePrefix}1, … (choose another prefix with --score-prefix)`, { line: info.lines }, { value: record.join(',') });
    }
    for (let k = 0; k < found.size; k++) {
      const j = found.get(k);
      if (j === undefined) fileFail('UM_FILE_FORMAT', fn, path, `score columns must be numbered ${scorePrefix}0 … ${scorePrefix}${found.size - 1} without gaps; ${scorePrefix}${k} is missing`, { line: info.lines });
      scoreIndex.push(j);
    }
  };
  if (range !== undefined) useHeader(range.header, { lines: 1 });
  try {
    for await (const item of parser as AsyncIterable<{ info: { lines: number }; record: string[] }>) {
      const { record, info } = item;
      if (header === undefined) {
        useHeader(record, info);
        continue;
      }
      const line = info.lines + lineOffset;
      if (record.length !== header.length) {
        fileFail('UM_FILE_FORMAT', fn, path, `expected ${header.length} fields like the header, got ${record.length}`, { line });
      }
      const cell = (j: number): number => {
        const text = record[j] as string;
        const v = parseNumber(text);
        if (v === undefined) {
          fileFail('UM_FILE_FORMAT', fn, path, text === '' ? 'empty cell' : 'expected a number', { line, column: j + 1, columnName: (header as string[])[j] }, { value: text });
        }
        return v;
      };
      if (labelIndex >= 0) labels.push(cell(labelIndex));
      for (const j of scoreIndex) scores.push(cell(j));
      if (weightIndex >= 0) weights.push(cell(weightIndex));
      lines.push(line);
      if (lines.length >= batchRows) yield batch();
    }
  } catch (error) {
    if (error instanceof CsvError) {
      const e = error as CsvError & { lines?: number; column?: unknown };
      const place: { line?: number; column?: number } = {};
      if (typeof e.lines === 'number') place.line = e.lines + lineOffset;
      if (typeof e.column === 'number') place.column = e.column + 1;
      fileFail('UM_FILE_FORMAT', fn, path, csvProblem(e), place);
    }
    if (typeof error === 'object' && error !== null && 'syscall' in error) readFail(fn, path, error);
    throw error;
  } finally {
    source.destroy();
    text.destroy();
    await handle.close().catch(() => undefined);
  }
  if (header === undefined) fileFail('UM_FILE_FORMAT', fn, path, 'is empty (expected a header line)');
  if (range === undefined && firstRow === 0 && lines.length === 0) fileFail('UM_EMPTY', fn, path, 'has a header but no data rows');
  if (lines.length > 0) yield batch();
}

/** Plain words for an error of the CSV parser (its position is added by the caller) (internal). */
function csvProblem(e: CsvError): string {
  switch (e.code) {
    case 'INVALID_OPENING_QUOTE':
      return 'a quote inside an unquoted field (quote the whole field and double the quote: "x""y")';
    case 'CSV_INVALID_CLOSING_QUOTE':
    case 'CSV_NON_TRIMABLE_CHAR_AFTER_CLOSING_QUOTE':
      return 'a closing quote is followed by other characters (expected a comma or the end of the line)';
    case 'CSV_QUOTE_NOT_CLOSED':
      return 'a quoted field is never closed (the file ends inside quotes)';
    case 'CSV_MAX_RECORD_SIZE':
      return `the record is longer than ${MAX_RECORD_BYTES} bytes (the longest accepted)`;
    default:
      return `cannot be parsed as CSV (${e.message.replace(/\s*(?:at|on) line \d+.*$/, '')})`;
  }
}

/** One batch of CSV rows as `PredictionData` (internal). */
function makeBatch(
  path: string,
  input: ScoreKind,
  header: string[],
  scoreIndex: number[],
  labelIndex: number,
  labelColumn: string,
  weightIndex: number,
  labels: number[],
  scores: number[],
  weights: number[],
  lines: number[],
  firstRow: number,
): PredictionBatch {
  const numClasses = scoreIndex.length;
  const columns = scoreIndex.map((j) => header[j] as string);
  const used = new Set([labelIndex, weightIndex, ...scoreIndex]);
  const ignoredColumns = header.filter((_, j) => !used.has(j));
  return {
    path,
    format: 'csv',
    input,
    n: lines.length,
    firstRow,
    numClasses,
    labels: Float64Array.from(labels),
    hasLabels: labelIndex >= 0,
    scores: Float64Array.from(scores),
    ...(weightIndex >= 0 ? { weights: Float64Array.from(weights) } : {}),
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
