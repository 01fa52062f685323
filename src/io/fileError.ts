import { open, stat, type FileHandle } from 'node:fs/promises';
import type { Stats } from 'node:fs';
import { formatValue } from '../errors/formatValue.js';
import { UMError, type UMErrorCode } from '../errors/UMError.js';

/** Where in a file: 1-based line and column (CSV field) and the column's name, when known. */
export interface FilePlace {
  /** 0-based byte offset (binary formats). */
  byte?: number;
  line?: number;
  column?: number;
  columnName?: string;
}

/** Describes a place in a file: `file: line 4, column 3 ("p_1")` (then the byte offset, when known). */
export function describePlace(file: string, place: FilePlace = {}): string {
  const parts: string[] = [];
  if (place.line !== undefined) parts.push(`line ${place.line}`);
  if (place.column !== undefined)
    parts.push(
      `column ${place.column}${place.columnName === undefined ? '' : ` (${JSON.stringify(place.columnName)})`}`,
    );
  else if (place.columnName !== undefined) parts.push(`column ${JSON.stringify(place.columnName)}`);
  if (place.byte !== undefined) parts.push(`byte ${place.byte}`);
  return parts.length === 0 ? file : `${file}: ${parts.join(', ')}`;
}

/** Throws a file error: `fn: file: line L, column C ("name"): <problem>; got <value>`. */
export function fileFail(
  code: UMErrorCode,
  fn: string,
  file: string,
  problem: string,
  place: FilePlace = {},
  value?: { value: unknown },
): never {
  const got = value === undefined ? '' : `; got ${formatValue(value.value)}`;
  const details: {
    fn: string;
    argument: string;
    file: string;
    byte?: number;
    line?: number;
    column?: number;
    value?: unknown;
  } = {
    fn,
    argument: 'file',
    file,
  };
  if (place.byte !== undefined) details.byte = place.byte;
  if (place.line !== undefined) details.line = place.line;
  if (place.column !== undefined) details.column = place.column;
  if (value !== undefined) details.value = value.value;
  throw new UMError(code, `${fn}: ${describePlace(file, place)}: ${problem}${got}`, details);
}

/** Maps a failed read (missing file, directory, permissions) to a typed error. */
export function readFail(fn: string, file: string, error: unknown): never {
  const code = (error as { code?: unknown }).code;
  if (code === 'ENOENT') fileFail('UM_FILE_NOT_FOUND', fn, file, 'no such file');
  if (code === 'EISDIR') fileFail('UM_FILE_READ', fn, file, 'is a directory, not a file');
  if (code === 'EACCES' || code === 'EPERM') fileFail('UM_FILE_READ', fn, file, 'cannot be read (permission denied)');
  const message = error instanceof Error ? error.message : String(error);
  fileFail('UM_FILE_READ', fn, file, `cannot be read (${message.split('\n')[0] ?? ''})`);
}

/** What a non-regular file is, for messages. */
function kindOf(s: Stats): string {
  if (s.isFIFO()) return 'a FIFO (named pipe)';
  if (s.isCharacterDevice()) return 'a character device';
  if (s.isBlockDevice()) return 'a block device';
  if (s.isSocket()) return 'a socket';
  return 'not a regular file';
}

/**
 * Opens an input file once (internal). `sequential` readers (CSV, JSON Lines) also take a FIFO or a device, read
 * front to back with bounded memory; the others read by position or whole, and need a regular file — checked by
 * `stat` before opening, so a FIFO without a writer is rejected instead of blocking.
 */
export async function openInput(
  fn: string,
  path: string,
  sequential: boolean,
  why = 'this format is read by position and needs a regular file',
): Promise<FileHandle> {
  let s: Stats;
  try {
    s = await stat(path);
  } catch (error) {
    readFail(fn, path, error);
  }
  if (s.isDirectory()) fileFail('UM_FILE_READ', fn, path, 'is a directory, not a file');
  if (!s.isFile() && !sequential)
    fileFail('UM_FILE_READ', fn, path, `is ${kindOf(s)}; ${why} (save it to a file first)`);
  try {
    return await open(path, 'r');
  } catch (error) {
    readFail(fn, path, error);
  }
}

/** Reads a whole regular file (internal): {@link openInput}, then exactly the bytes `stat` reported. */
export async function readWhole(fn: string, path: string): Promise<Buffer> {
  const handle = await openInput(fn, path, false);
  try {
    const { size } = await handle.stat();
    const bytes = Buffer.alloc(size);
    let at = 0;
    while (at < size) {
      const { bytesRead } = await handle.read(bytes, at, size - at, at);
      if (bytesRead === 0)
        fileFail('UM_FILE_READ', fn, path, `changed while it was read (ended at byte ${at} of ${size})`, { byte: at });
      at += bytesRead;
    }
    return bytes;
  } catch (error) {
    if (error instanceof UMError) throw error;
    readFail(fn, path, error);
  } finally {
    await handle.close().catch(() => undefined);
  }
}

/** The bytes a sequential reader asks for at a time (Node's stream default). */
const READ_CHUNK = 64 * 1024;

/**
 * The bytes of an open file in order, `[start, end)` (internal; the sequential readers). A plain read loop, not
 * `FileHandle.createReadStream`: with a stream, `handle.close()` could resolve while the descriptor stayed open a
 * moment longer, and a FIFO still open for reading lets the next writer's bytes go to the old reader (measured: about
 * 4 % of reads of a FIFO in Node 20). Each chunk is a new buffer: consumers keep them.
 */
export async function* fileChunks(handle: FileHandle, start = -1, end = Infinity): AsyncGenerator<Buffer> {
  let position = start;
  for (;;) {
    const want = position < 0 ? READ_CHUNK : Math.min(READ_CHUNK, end - position);
    if (want <= 0) return;
    const buffer = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(buffer, 0, want, position < 0 ? null : position);
    if (bytesRead === 0) return;
    if (position >= 0) position += bytesRead;
    // a short read (a pipe gives a few hundred bytes) is copied: a consumer keeping it would pin all 64 KiB
    yield bytesRead === want ? buffer : Buffer.from(buffer.subarray(0, bytesRead));
  }
}
