import type { FileHandle } from 'node:fs/promises';
import type { PredictionBatch } from './batches.js';
import { headerLayout, makeBatch } from './csvLayout.js';
import { parseLine, type FastRows } from './csvFast.js';
import { fileFail, readFail } from './fileError.js';
import type { CsvRange } from './readCsv.js';
import type { ReadSpec } from './readSpec.js';
import { MAX_RECORD_BYTES } from './textInput.js';

/** Bytes read per step (many lines; the carried partial line is at most one record). Tests set tiny steps. */
export const FAST_CSV = { chunkBytes: 4 * 2 ** 20 };

/** How the fast path ended: the whole range read, or where the general parser takes over (null: from the start). */
export type FastEnd = { done: true } | { done: false; rest: CsvRange | null };

/**
 * Reads a regular CSV file's `range` (or all of it) through the numeric fast path (csvFast.ts), yielding batches of
 * `batchRows` rows, until a line the fast path does not take: then the batch so far is yielded and the returned
 * range (from that line, with the header and the line and row numbers) goes to the general parser. A header that is
 * not plain ASCII without quotes returns `rest: null` before anything is yielded (internal).
 */
export async function* streamCsvFast(
  spec: ReadSpec,
  handle: FileHandle,
  size: number,
  batchRows: number,
  range?: CsvRange,
): AsyncGenerator<PredictionBatch, FastEnd> {
  const { fn, path } = spec;
  const end = range?.end ?? size;
  let position = range?.start ?? 0; // file offset of the next byte to read
  let line = range?.firstLine ?? 1; // number of the next line
  let firstRow = range?.firstRow ?? 0;
  let header = range?.header;
  let layout = header === undefined ? undefined : headerLayout(spec, header, 1);
  let roles: Int32Array | undefined;
  let rows: FastRows | undefined;
  const setLayout = (): void => {
    const l = layout as NonNullable<typeof layout>;
    const width = (header as string[]).length;
    roles = new Int32Array(width).fill(-1);
    l.scoreIndex.forEach((j, k) => ((roles as Int32Array)[j] = k));
    if (l.labelIndex >= 0) roles[l.labelIndex] = -2;
    if (l.weightIndex >= 0) roles[l.weightIndex] = -3;
    const c = l.scoreIndex.length;
    rows = {
      labels: new Float64Array(batchRows),
      scores: new Float64Array(batchRows * c),
      weights: new Float64Array(batchRows),
      lines: new Float64Array(batchRows),
      count: 0,
    };
  };
  if (layout !== undefined) setLayout();
  const batch = (): PredictionBatch => {
    const r = rows as FastRows;
    const l = layout as NonNullable<typeof layout>;
    const c = l.scoreIndex.length;
    const b = makeBatch(
      spec,
      header as string[],
      l,
      {
        labels: r.labels.slice(0, l.labelIndex >= 0 ? r.count : 0),
        scores: r.scores.slice(0, r.count * c),
        weights: r.weights.slice(0, r.count),
        lines: r.lines.slice(0, r.count),
      },
      firstRow,
    );
    firstRow += r.count;
    r.count = 0;
    return b;
  };
  const handOver = (start: number): FastEnd => ({
    done: false,
    rest: { start, end, header: header as string[], firstLine: line, firstRow },
  });
  // the partial line of a step moves to the front of the next one: room for one step and one record, neither more
  // than the range holds (a buffer of 20 MiB, zero-filled for every file, was most of the time of reading a small one)
  const chunk = FAST_CSV.chunkBytes;
  const total = Math.max(0, end - position);
  const work = Buffer.alloc(Math.min(chunk, total) + Math.min(MAX_RECORD_BYTES, total) + 2);
  let length = 0; // bytes in `work`
  let base = position; // file offset of work[0]
  let atEnd = false;
  while (!atEnd) {
    let got = 0;
    try {
      ({ bytesRead: got } = await handle.read(work, length, Math.min(chunk, end - position), position));
    } catch (error) {
      readFail(fn, path, error);
    }
    atEnd = got === 0 || position + got >= end;
    position += got;
    length += got;
    // the bytes read so far: a line end is looked for in them only, not in the rest of the buffer
    const data = work.subarray(0, length);
    let from = 0;
    for (;;) {
      let nl = data.indexOf(10, from);
      if (nl < 0 || nl >= length) {
        if (from >= length) break;
        if (!atEnd) {
          // the partial line moves on to the next step, unless it is already longer than a record: then (it would
          // not fit the buffer with the next step) the general parser takes over and reports it
          if (length - from <= MAX_RECORD_BYTES) break;
          if (rows !== undefined && rows.count > 0) yield batch();
          return header === undefined ? { done: false, rest: null } : handOver(base + from);
        }
        nl = length; // the last line, without a line end
      }
      const stop = nl > from && work[nl - 1] === 13 ? nl - 1 : nl;
      if (nl - from > MAX_RECORD_BYTES) {
        if (rows !== undefined && rows.count > 0) yield batch();
        return header === undefined ? { done: false, rest: null } : handOver(base + from);
      }
      if (header === undefined) {
        const h = work.toString('latin1', from, stop);
        // a byte-order mark, quotes or non-ASCII names: the general parser reads the header (and the file)
        if (!/^[\x20-\x21\x23-\x7e\t]*$/.test(h)) return { done: false, rest: null };
        header = h.split(',').map((x) => x.replace(/^[ \t]+|[ \t]+$/g, ''));
        if (header.length === 1 && header[0] === '') return { done: false, rest: null };
        layout = headerLayout(spec, header, line);
        setLayout();
      } else if (stop > from) {
        const r = rows as FastRows;
        if (
          !parseLine(
            work,
            from,
            stop,
            roles as Int32Array,
            (layout as NonNullable<typeof layout>).scoreIndex.length,
            r,
            line,
          )
        ) {
          if (r.count > 0) yield batch();
          return handOver(base + from);
        }
        if (r.count >= batchRows) yield batch();
      }
      // (an empty line is skipped, as the general parser skips it)
      line++;
      from = nl + 1;
      if (nl >= length) break;
    }
    // the partial line moves to the front
    const left = Math.max(0, length - from);
    if (left > 0) work.copyWithin(0, from, length);
    base += Math.min(from, length);
    length = left;
  }
  if (header === undefined) return { done: false, rest: null };
  if (rows !== undefined && rows.count > 0) yield batch();
  if (range === undefined && firstRow === 0) fileFail('UM_EMPTY', fn, path, 'has a header but no data rows');
  return { done: true };
}
