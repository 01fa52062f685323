import { isUtf8 } from 'node:buffer';
import { Transform, type Readable, type TransformCallback } from 'node:stream';
import type { UMError } from '../errors/UMError.js';
import { fileChunks, fileFail, openInput, readFail } from './fileError.js';

/**
 * Longest CSV record or JSON line the readers accept (bytes). A text reader holds at most one record in memory, so
 * this bounds its memory on any input — `/dev/zero` or a file without line ends stops here with `UM_FILE_FORMAT`
 * instead of growing until the process dies. 16 MiB is a row of about a million probabilities.
 */
export const MAX_RECORD_BYTES = 16 << 20;

/** Length of the UTF-8 sequence a lead byte starts (0: not a lead byte). */
function sequenceLength(b: number): number {
  if (b < 0x80) return 1;
  if (b >= 0xc2 && b <= 0xdf) return 2;
  if (b >= 0xe0 && b <= 0xef) return 3;
  if (b >= 0xf0 && b <= 0xf4) return 4;
  return 0;
}

/** Whether `b` may follow lead byte `lead` as its first continuation byte (no overlongs, surrogates, > U+10FFFF). */
function firstContinuationOk(lead: number, b: number): boolean {
  if (lead === 0xe0) return b >= 0xa0 && b <= 0xbf;
  if (lead === 0xed) return b >= 0x80 && b <= 0x9f;
  if (lead === 0xf0) return b >= 0x90 && b <= 0xbf;
  if (lead === 0xf4) return b >= 0x80 && b <= 0x8f;
  return b >= 0x80 && b <= 0xbf;
}

/**
 * Offset of the first byte of `bytes` that does not start or continue valid UTF-8 (internal). With `partial`, a
 * sequence cut off by the end of `bytes` is not an error (more bytes follow); its start is returned as `complete`.
 */
export function scanUtf8(bytes: Uint8Array, partial: boolean): { bad: number; complete: number } {
  const n = bytes.length;
  // the last (possibly incomplete) sequence starts within the last 3 bytes
  let complete = n;
  for (let i = n - 1; i >= Math.max(0, n - 3); i--) {
    const b = bytes[i] as number;
    if (b < 0x80) break;
    if (b >= 0xc0) {
      if (sequenceLength(b) > n - i) complete = i;
      break;
    }
  }
  if (isUtf8(bytes.subarray(0, complete))) {
    if (complete === n || partial) return { bad: -1, complete };
  }
  for (let i = 0; i < n;) {
    const b = bytes[i] as number;
    const len = sequenceLength(b);
    if (len === 0) return { bad: i, complete };
    if (len === 1) {
      i++;
      continue;
    }
    for (let k = 1; k < len; k++) {
      if (i + k >= n) return partial ? { bad: -1, complete: i } : { bad: i, complete };
      const c = bytes[i + k] as number;
      if (k === 1 ? !firstContinuationOk(b, c) : c < 0x80 || c > 0xbf) return { bad: i, complete };
    }
    i += len;
  }
  return { bad: -1, complete };
}

/**
 * A finder of line ends (`\n` or `\r`) in `bytes` (internal): `next(from)` is the offset of the next one at or after
 * `from`, or −1. Each kind is searched again only once passed, so a text without `\r` is scanned once, not once per
 * line.
 */
export function lineEnds(bytes: Uint8Array): (from: number) => number {
  let lf = -2; // −2: not searched yet; −1: none left
  let cr = -2;
  return (from) => {
    if (lf !== -1 && lf < from) lf = bytes.indexOf(10, from);
    if (cr !== -1 && cr < from) cr = bytes.indexOf(13, from);
    return lf < 0 ? cr : cr < 0 ? lf : Math.min(lf, cr);
  };
}

/** 1-based line of byte `at` of `bytes`, given the line ends before them (internal). */
function lineAt(bytes: Uint8Array, at: number, linesBefore: number): number {
  let line = linesBefore + 1;
  for (let i = bytes.indexOf(10); i >= 0 && i < at; i = bytes.indexOf(10, i + 1)) line++;
  return line;
}

/** Throws the located error for bytes that are not UTF-8 (internal). */
export function notUtf8(
  fn: string,
  path: string,
  bytes: Uint8Array,
  bad: number,
  offset: number,
  linesBefore = 0,
): never {
  const shown = Array.from(
    bytes.subarray(bad, Math.min(bytes.length, bad + 4)),
    (b) => `\\x${b.toString(16).padStart(2, '0')}`,
  ).join('');
  fileFail('UM_FILE_FORMAT', fn, path, `is not valid UTF-8 text (bytes ${shown}); save it as UTF-8`, {
    byte: offset + bad,
    line: lineAt(bytes, bad, linesBefore),
  });
}

/** Checks that a whole text file is UTF-8 and returns it without a leading byte-order mark (internal). */
export function decodeUtf8(fn: string, path: string, bytes: Buffer): string {
  const { bad } = scanUtf8(bytes, false);
  if (bad >= 0) notUtf8(fn, path, bytes, bad, 0);
  const text = bytes.toString('utf8');
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/**
 * A byte stream passed on in whole lines, unchanged, once checked (internal): the first byte that is not UTF-8, or a
 * line longer than `maxBytes`, stops it with a `UM_FILE_FORMAT` error naming the line and byte. A text parser would
 * silently turn a bad byte into U+FFFD, and would hold an endless line (`/dev/zero`) until memory runs out — here it
 * never sees more than `maxBytes` without a line end.
 */
export function checkedText(
  fn: string,
  path: string,
  source: Readable,
  firstLine = 1,
  firstByte = 0,
  maxBytes = MAX_RECORD_BYTES,
): Transform {
  let parts: Buffer[] = [];
  let pending = 0; // bytes after the last line end seen
  let offset = firstByte; // file offset of the first byte not yet passed on
  let lines = firstLine - 1; // line ends passed on
  const tooLong = (lineStart: number): UMError => {
    try {
      fileFail('UM_FILE_FORMAT', fn, path, `the line is longer than ${maxBytes} bytes (the longest accepted)`, {
        line: lines + 1,
        byte: lineStart + maxBytes,
      });
    } catch (error) {
      return error as UMError;
    }
  };
  let afterCr = false; // the bytes passed on so far end with \r (a \n first in the next ones completes a \r\n)
  /** Checks whole lines (the first in file order of a bad byte and a long line is reported), then counts them. */
  const pass = (out: Buffer): UMError | undefined => {
    const { bad } = scanUtf8(out, false);
    const nextEnd = lineEnds(out);
    let start = 0;
    for (let e = nextEnd(0); e >= 0 || start < out.length; e = nextEnd(start)) {
      const end = e < 0 ? out.length : e;
      if (bad >= 0 && bad < end) break;
      if (end - start > maxBytes) return tooLong(offset + start);
      if (e < 0) break;
      // \n, \r\n and (old Mac files) \r each end one line
      if (!(out[e] === 10 && (e > 0 ? out[e - 1] === 13 : afterCr))) lines++;
      start = e + 1;
    }
    if (bad >= 0) {
      try {
        notUtf8(fn, path, out.subarray(start), bad - start, offset + start, lines);
      } catch (error) {
        return error as UMError;
      }
    }
    offset += out.length;
    afterCr = out[out.length - 1] === 13;
    return undefined;
  };
  const t = new Transform({
    transform(chunk: Buffer, _encoding, callback: TransformCallback) {
      const last = Math.max(chunk.lastIndexOf(10), chunk.lastIndexOf(13));
      if (last < 0) {
        parts.push(chunk);
        pending += chunk.length;
        return callback(pending > maxBytes ? tooLong(offset) : null);
      }
      const out =
        parts.length === 0 ? chunk.subarray(0, last + 1) : Buffer.concat([...parts, chunk.subarray(0, last + 1)]);
      parts = last + 1 < chunk.length ? [chunk.subarray(last + 1)] : [];
      pending = chunk.length - last - 1;
      const error = pass(out);
      if (error !== undefined) return callback(error);
      callback(null, out);
    },
    flush(callback: TransformCallback) {
      if (pending === 0) return callback();
      const out = Buffer.concat(parts);
      const error = pass(out);
      callback(error ?? null, error === undefined ? out : undefined);
    },
  });
  // pipe() does not forward read errors; without this a failing read would leave the parser waiting forever
  source.on('error', (error) => t.destroy(error));
  source.pipe(t);
  return t;
}

/**
 * Splits a byte stream into UTF-8 lines (internal): `\n`, `\r\n` or `\r` ends a line, a BOM before the first line
 * is dropped, a line longer than {@link MAX_RECORD_BYTES} or not UTF-8 stops with a located `UM_FILE_FORMAT` error.
 * Memory is one line at a time, whatever the source (a FIFO, `/dev/zero`).
 */
export async function* textLines(
  fn: string,
  path: string,
  source: AsyncIterable<Buffer>,
  maxBytes = MAX_RECORD_BYTES,
): AsyncGenerator<{ text: string; line: number }> {
  for await (const { bytes, line } of byteLines(fn, path, source, maxBytes))
    yield { text: bytes.toString('utf8'), line };
}

/**
 * {@link textLines} as bytes (checked UTF-8, the BOM dropped), for readers that parse a line without decoding it
 * (the JSON Lines fast path). A line's bytes are valid only until the next one is asked for.
 */
export async function* byteLines(
  fn: string,
  path: string,
  source: AsyncIterable<Buffer>,
  maxBytes = MAX_RECORD_BYTES,
): AsyncGenerator<{ bytes: Buffer; line: number }> {
  for await (const { lines, first } of byteLineRuns(fn, path, source, maxBytes))
    for (const [j, bytes] of lines.entries()) yield { bytes, line: first + j };
}

/**
 * {@link byteLines} a run at a time: the lines completed by one read of the source, numbered from `first` — one
 * await per read instead of one per line (a million short lines: half a second of promises). A bad line (too long,
 * not UTF-8) ends a run; its error comes when the next run is asked for, so the lines before it are read first, as
 * line by line.
 */
export async function* byteLineRuns(
  fn: string,
  path: string,
  source: AsyncIterable<Buffer>,
  maxBytes = MAX_RECORD_BYTES,
): AsyncGenerator<{ lines: Buffer[]; first: number }> {
  let parts: Buffer[] = [];
  let pending = 0;
  let line = 0;
  let lineStart = 0; // file offset of the current line
  let base = 0; // file offset of the current chunk
  let skipLf = false; // the previous chunk ended with \r: a \n first in this one completes a \r\n
  let run: Buffer[] = [];
  let first = 1;
  const emit = (bytes: Buffer): void => {
    line++;
    const skip = line === 1 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0;
    const body = bytes.subarray(skip);
    const { bad } = scanUtf8(body, false);
    if (bad >= 0) notUtf8(fn, path, body, bad, lineStart + skip, line - 1);
    run.push(body);
  };
  const tooLong = (): never =>
    fileFail('UM_FILE_FORMAT', fn, path, `the line is longer than ${maxBytes} bytes (the longest accepted)`, {
      line: line + 1,
      byte: lineStart + maxBytes,
    });
  const take = (): { lines: Buffer[]; first: number } => {
    const out = { lines: run, first };
    first += run.length;
    run = [];
    return out;
  };
  try {
    for await (const chunk of source) {
      let at = 0;
      if (skipLf && chunk[0] === 10) {
        at = 1;
        lineStart = base + 1;
      }
      skipLf = false;
      const nextEnd = lineEnds(chunk);
      for (;;) {
        const e = nextEnd(at);
        if (e < 0) break;
        if (pending + e - at > maxBytes) tooLong();
        const bytes = parts.length === 0 ? chunk.subarray(at, e) : Buffer.concat([...parts, chunk.subarray(at, e)]);
        parts = [];
        pending = 0;
        emit(bytes);
        let next = e + 1;
        if (chunk[e] === 13) {
          if (e + 1 === chunk.length) skipLf = true;
          else if (chunk[e + 1] === 10) next = e + 2;
        }
        lineStart = base + next;
        at = next;
      }
      if (at < chunk.length) {
        pending += chunk.length - at;
        if (pending > maxBytes) tooLong();
        parts.push(chunk.subarray(at));
      }
      base += chunk.length;
      if (run.length > 0) yield take();
    }
    if (pending > 0) emit(Buffer.concat(parts));
  } catch (error) {
    // the lines read before the bad one first
    if (run.length > 0) yield take();
    throw error;
  }
  if (run.length > 0) yield take();
}

/**
 * {@link byteLineRuns} of a file read front to back (a FIFO works): a failing read is a located `UM_FILE_READ`, and
 * the file is closed however the caller stops (internal; the JSON Lines readers).
 */
export async function* fileLineRuns(fn: string, path: string): AsyncGenerator<{ lines: Buffer[]; first: number }> {
  // opened once: a FIFO opened twice would wait for a second writer
  const handle = await openInput(fn, path, true);
  try {
    yield* byteLineRuns(fn, path, fileChunks(handle));
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'syscall' in error) readFail(fn, path, error);
    throw error;
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/**
 * One line of a JSON Lines file as an object, or a `UM_FILE_FORMAT` error naming the file and line: the JSON error
 * without its position (the line is named instead), or `must hold <what>` for a value that is not an object
 * (internal; every JSON Lines reader).
 */
export function jsonObjectLine(
  fn: string,
  path: string,
  text: string,
  line: number,
  what: string,
): Record<string, unknown> {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `is not valid JSON (${error instanceof Error ? error.message.replace(/ in JSON at position \d+.*$/, '') : String(error)})`,
      { line },
    );
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    fileFail('UM_FILE_FORMAT', fn, path, `must hold an object ${what}`, { line }, { value });
  return value as Record<string, unknown>;
}
