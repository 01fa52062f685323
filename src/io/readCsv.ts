import { stat } from 'node:fs/promises';
import { Readable } from 'node:stream';
import { CsvError, parse } from 'csv-parse';
import { fileChunks, fileFail, openInput, readFail } from './fileError.js';
import { headerLayout, makeBatch, type CsvLayout } from './csvLayout.js';
import { streamCsvFast } from './streamCsvFast.js';
import { MAX_RECORD_BYTES, checkedText } from './textInput.js';
import { parseNumber } from './parseNumber.js';
import { BATCH_ROWS, collect, type PredictionBatch } from './batches.js';
import type { PredictionData } from './types.js';
import { classOf } from './classNames.js';
import type { ReadSpec } from './readSpec.js';

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
export function readCsv(spec: ReadSpec): Promise<PredictionData> {
  return collect(streamCsv(spec));
}

/**
 * Streams a CSV of predictions in batches of `batchRows` rows (constant memory): a header with a label column, score
 * columns `<prefix>0 … <prefix>{C−1}` and optionally a weight column. A malformed row anywhere stops the stream with
 * a `UM_FILE_FORMAT` error naming its line and column. A regular file goes through the numeric fast path
 * (streamCsvFast.ts) as far as its lines are plain numbers, and through the general parser (csv-parse) from the first
 * line that is not; a FIFO goes through the general parser. With class names, labels are names (text, not
 * numbers) and score columns may be named after the classes: the general parser reads the file.
 */
export async function* streamCsv(
  spec: ReadSpec,
  batchRows = BATCH_ROWS,
  range?: CsvRange,
): AsyncGenerator<PredictionBatch> {
  const { fn, path } = spec;
  let rest: CsvRange | undefined = range;
  // only a regular file is opened twice (a FIFO's writer would lose its reader); a path that cannot be read is
  // reported by the general path, with its usual message
  const st = await stat(path).catch(() => undefined);
  // the fast path reads labels as numbers: with class names a label "1" may be class 0
  if (st?.isFile() === true && spec.classes === undefined) {
    const handle = await openInput(fn, path, true);
    try {
      const fast = streamCsvFast(spec, handle, st.size, batchRows, range);
      let step = await fast.next();
      while (step.done !== true) {
        yield step.value;
        step = await fast.next();
      }
      if (step.value.done) return;
      rest = step.value.rest ?? range;
    } finally {
      await handle.close().catch(() => undefined);
    }
  }
  yield* streamCsvGeneral(spec, batchRows, rest);
}

/** The general CSV path (csv-parse): quotes, any UTF-8, every located error (internal; exported for the tests that compare the fast path with it). */
export async function* streamCsvGeneral(
  spec: ReadSpec,
  batchRows = BATCH_ROWS,
  range?: CsvRange,
): AsyncGenerator<PredictionBatch> {
  const { fn, path, labelColumn, classes } = spec;
  const handle = await openInput(fn, path, true);
  const source = Readable.from(range === undefined ? fileChunks(handle) : fileChunks(handle, range.start, range.end), {
    objectMode: false,
  });
  // the field count is checked below, where the header is known (the parser would report it before we see the header)
  const parser = parse({
    info: true,
    skip_empty_lines: true,
    trim: true,
    bom: range === undefined,
    relax_column_count: true,
    max_record_size: MAX_RECORD_BYTES,
  });
  const lineOffset = range === undefined ? 0 : range.firstLine - 1;
  const text = checkedText(fn, path, source, range?.firstLine ?? 1, range?.start ?? 0);
  // pipe() does not forward errors; without this a failing read would leave the parser waiting forever
  text.on('error', (error) => parser.destroy(error));
  text.pipe(parser);
  let header: string[] | undefined;
  let layout: CsvLayout = { labelIndex: -1, weightIndex: -1, scoreIndex: [] };
  let labels: number[] = [];
  let scores: number[] = [];
  let weights: number[] = [];
  let lines: number[] = [];
  let firstRow = range?.firstRow ?? 0;
  const batch = (): PredictionBatch => {
    const b = makeBatch(spec, header as string[], layout, { labels, scores, weights, lines }, firstRow);
    firstRow += lines.length;
    labels = [];
    scores = [];
    weights = [];
    lines = [];
    return b;
  };
  const useHeader = (record: string[], info: { lines: number }): void => {
    header = record;
    layout = headerLayout(spec, record, info.lines);
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
      const { labelIndex, weightIndex, scoreIndex } = layout;
      if (record.length !== header.length) {
        fileFail('UM_FILE_FORMAT', fn, path, `expected ${header.length} fields like the header, got ${record.length}`, {
          line,
        });
      }
      const cell = (j: number): number => {
        const text = record[j] as string;
        const v = parseNumber(text);
        if (v === undefined) {
          const hint =
            j === labelIndex && text !== '' && !/^[-+]?(?:nan|inf(?:inity)?)$/i.test(text)
              ? ' (string labels need options.classes)'
              : '';
          fileFail(
            'UM_FILE_FORMAT',
            fn,
            path,
            text === '' ? 'empty cell' : `expected a number${hint}`,
            { line, column: j + 1, columnName: (header as string[])[j] },
            { value: text },
          );
        }
        return v;
      };
      if (labelIndex >= 0)
        labels.push(
          classes === undefined
            ? cell(labelIndex)
            : classOf(fn, path, classes, record[labelIndex], { line, column: labelIndex + 1, columnName: labelColumn }),
        );
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
  if (range === undefined && firstRow === 0 && lines.length === 0)
    fileFail('UM_EMPTY', fn, path, 'has a header but no data rows');
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
