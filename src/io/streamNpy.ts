import type { FileHandle } from 'node:fs/promises';
import { BATCH_ROWS, type PredictionBatch } from './batches.js';
import { fileFail, openInput } from './fileError.js';
import { inputOrProbs, type ReadSpec } from './readSpec.js';

/** The header of a `.npy` file: dtype, order, shape and where the data starts. */
export interface NpyHeader {
  descr: string;
  fortran: boolean;
  shape: number[];
  dataOffset: number;
  itemSize: number;
  fileSize: number;
}

export const READERS: Record<string, (v: DataView, at: number) => number> = {
  '<f8': (v, at) => v.getFloat64(at, true),
  '<f4': (v, at) => v.getFloat32(at, true),
  '<i8': (v, at) => Number(v.getBigInt64(at, true)),
  '<i4': (v, at) => v.getInt32(at, true),
  '<i2': (v, at) => v.getInt16(at, true),
  '|i1': (v, at) => v.getInt8(at),
  '<u8': (v, at) => Number(v.getBigUint64(at, true)),
  '<u4': (v, at) => v.getUint32(at, true),
  '<u2': (v, at) => v.getUint16(at, true),
  '|u1': (v, at) => v.getUint8(at),
  '|b1': (v, at) => v.getUint8(at),
};

/** Longest `.npy` header accepted (numpy itself refuses headers over 10 000 bytes by default). */
const MAX_HEADER_BYTES = 65536;

/**
 * Reads and checks the header of a `.npy` file (format versions 1–3) against the file's size (internal): the
 * dtype must be one this library reads, the shape non-negative integers, and the data exactly as long as the shape
 * says — a file missing whole rows or with bytes after its data is rejected naming the file and the byte.
 */
export async function npyHeader(fn: string, path: string, handle: FileHandle): Promise<NpyHeader> {
  const { size } = await handle.stat();
  const head = Buffer.alloc(Math.min(size, MAX_HEADER_BYTES + 12));
  await handle.read(head, 0, head.length, 0);
  if (head.length < 10 || head.toString('latin1', 0, 6) !== '\x93NUMPY')
    fileFail('UM_FILE_FORMAT', fn, path, 'is not a NumPy .npy array (no \\x93NUMPY magic)', { byte: 0 });
  const major = head[6] as number;
  if (major < 1 || major > 3)
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      'has an unknown .npy format version (1, 2 and 3 are read)',
      { byte: 6 },
      { value: major },
    );
  const lenBytes = major === 1 ? 2 : 4;
  if (head.length < 8 + lenBytes)
    fileFail('UM_FILE_FORMAT', fn, path, `is truncated inside its header (${size} bytes)`, { byte: size });
  const len = major === 1 ? head.readUInt16LE(8) : head.readUInt32LE(8);
  if (len > MAX_HEADER_BYTES)
    fileFail('UM_FILE_FORMAT', fn, path, `has a header of ${len} bytes; at most ${MAX_HEADER_BYTES} are read`, {
      byte: 8,
    });
  const dataOffset = 8 + lenBytes + len;
  if (dataOffset > size)
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `is truncated inside its header (${size} bytes, the header needs ${dataOffset})`,
      { byte: size },
    );
  const text = head.toString('latin1', 8 + lenBytes, dataOffset);
  const descr = /'descr':\s*'([^']+)'/.exec(text)?.[1];
  const order = /'fortran_order':\s*(True|False)/.exec(text)?.[1];
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(text)?.[1];
  if (descr === undefined || order === undefined || shapeText === undefined)
    fileFail('UM_FILE_FORMAT', fn, path, 'has a malformed .npy header', { byte: 8 + lenBytes }, { value: text.trim() });
  const parts = shapeText
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '');
  if (!parts.every((x) => /^\d+L?$/.test(x)))
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      'has a malformed shape in its .npy header',
      { byte: 8 + lenBytes },
      { value: `(${shapeText})` },
    );
  const shape = parts.map((x) => Number.parseInt(x, 10));
  const itemSize = READERS[descr] === undefined ? NaN : Number(/(\d+)$/.exec(descr)?.[1]);
  const items = shape.reduce((a, b) => a * b, 1);
  if (!Number.isSafeInteger(items * (Number.isNaN(itemSize) ? 1 : itemSize)))
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      'declares a shape too large to read',
      { byte: 8 + lenBytes },
      { value: `[${shape.join(', ')}]` },
    );
  return { descr, fortran: order === 'True', shape, dataOffset, itemSize, fileSize: size };
}

/**
 * Checks that the data is exactly as long as the header's shape and dtype say (internal): a missing part names
 * the first row that is cut off; bytes after the data mean the file is not what its header describes.
 */
export function checkLength(fn: string, path: string, h: NpyHeader): void {
  const rowItems = h.shape.slice(h.shape.length === 3 ? 2 : 1).reduce((a, b) => a * b, 1);
  const need = h.dataOffset + h.shape.reduce((a, b) => a * b, 1) * h.itemSize;
  if (h.fileSize < need) {
    const what = h.shape.length === 1 ? 'element' : 'row';
    const present = Math.floor((h.fileSize - h.dataOffset) / (Math.max(1, rowItems) * h.itemSize));
    const at =
      h.shape.length === 3
        ? `member ${Math.floor(present / (h.shape[1] as number))}, row ${present % (h.shape[1] as number)}`
        : `${what} ${present}`;
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `is truncated: its header declares shape [${h.shape.join(', ')}] (${need} bytes), the file has ${h.fileSize}; ${at} is cut off`,
      { byte: h.fileSize },
    );
  }
  if (h.fileSize > need)
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `has ${h.fileSize - need} bytes after the data its header declares (shape [${h.shape.join(', ')}], ${need} bytes)`,
      { byte: need },
    );
}

/** Checks the dtype of a labels `.npy` (internal). */
export function checkLabelsHeader(fn: string, path: string, h: NpyHeader, n: number, scoresPath: string): void {
  if (READERS[h.descr] === undefined)
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      'must hold little-endian integer, float or bool labels',
      {},
      { value: h.descr },
    );
  if (h.shape.length !== 1)
    fileFail('UM_FILE_FORMAT', fn, path, 'must have shape [N]', {}, { value: `[${h.shape.join(', ')}]` });
  checkLength(fn, path, h);
  if (h.shape[0] !== n)
    fileFail(
      'UM_FILE_FORMAT',
      fn,
      path,
      `must hold one label per row of ${scoresPath} (${n})`,
      {},
      { value: h.shape[0] },
    );
}

/** Reads `count` items of a checked `.npy` from item `first` as numbers (internal). */
export async function readItems(
  fn: string,
  path: string,
  handle: FileHandle,
  h: NpyHeader,
  first: number,
  count: number,
): Promise<Float64Array> {
  const bytes = Buffer.alloc(count * h.itemSize);
  await readExactly(fn, path, handle, bytes, h.dataOffset + first * h.itemSize);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const read = READERS[h.descr] as (v: DataView, at: number) => number;
  const out = new Float64Array(count);
  for (let j = 0; j < count; j++) out[j] = read(view, j * h.itemSize);
  return out;
}

/**
 * Reads `count` scores of a checked float `.npy` from item `first`: float32 kept as a `Float32Array`, as the
 * whole-file reader keeps it, so a streamed file reaches the metrics with the same values and kernel as read whole
 * (and so gives the same bits) (internal).
 */
async function readScores(
  fn: string,
  path: string,
  handle: FileHandle,
  h: NpyHeader,
  first: number,
  count: number,
): Promise<Float32Array | Float64Array> {
  if (h.descr !== '<f4') return readItems(fn, path, handle, h, first, count);
  const bytes = Buffer.alloc(count * 4);
  await readExactly(fn, path, handle, bytes, h.dataOffset + first * 4);
  const out = new Float32Array(count);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let j = 0; j < count; j++) out[j] = view.getFloat32(j * 4, true);
  return out;
}

/** Fills `bytes` from `position`; a file that shrank since its size was checked is a located error (internal). */
export async function readExactly(
  fn: string,
  path: string,
  handle: FileHandle,
  bytes: Uint8Array,
  position: number,
): Promise<void> {
  for (let at = 0; at < bytes.length;) {
    const { bytesRead } = await handle.read(bytes, at, Math.min(bytes.length - at, 1 << 30), position + at);
    if (bytesRead === 0)
      fileFail('UM_FILE_FORMAT', fn, path, 'ended early (did it change while being read?)', { byte: position + at });
    at += bytesRead;
  }
}

/**
 * Streams a NumPy scores file [N, C] (C order, float32/float64, little-endian) and its labels [N] in batches of
 * `batchRows` rows, reading only each batch's bytes. Fortran-ordered or 3-D (ensemble) files are not streamed
 * (`readPredictions` reads them whole).
 */
export async function* streamNpy(
  spec: ReadSpec,
  batchRows = BATCH_ROWS,
  rowRange?: [number, number],
): AsyncGenerator<PredictionBatch> {
  const { fn, path, requireLabels, labels: labelsPath } = spec;
  const input = inputOrProbs(spec);
  if (labelsPath === undefined && requireLabels)
    fileFail('UM_FILE_FORMAT', fn, path, 'holds only scores; give the labels .npy with --labels (option `labels`)');
  let scoresFile: FileHandle | undefined;
  let labelsFile: FileHandle | undefined;
  try {
    scoresFile = await openInput(fn, path, false);
    const h = await npyHeader(fn, path, scoresFile);
    if (h.descr !== '<f8' && h.descr !== '<f4')
      fileFail(
        'UM_FILE_FORMAT',
        fn,
        path,
        'must hold little-endian float32 or float64 scores to be streamed',
        {},
        { value: h.descr },
      );
    if (h.shape.length !== 2 || h.fortran)
      fileFail(
        'UM_FILE_FORMAT',
        fn,
        path,
        'must be a C-ordered [N, C] array to be streamed (read ensembles and Fortran-ordered files whole)',
        {},
        { value: `[${h.shape.join(', ')}]` },
      );
    const [n, c] = h.shape as [number, number];
    checkLength(fn, path, h);
    if (n === 0) fileFail('UM_EMPTY', fn, path, 'has no rows');
    let lh: NpyHeader | undefined;
    if (labelsPath !== undefined) {
      labelsFile = await openInput(fn, labelsPath, false);
      lh = await npyHeader(fn, labelsPath, labelsFile);
      checkLabelsHeader(fn, labelsPath, lh, n, path);
    }
    const [from, to] = rowRange ?? [0, n];
    for (let start = from; start < Math.min(n, to); start += batchRows) {
      const rows = Math.min(batchRows, Math.min(n, to) - start);
      const scores = await readScores(fn, path, scoresFile, h, start * c, rows * c);
      const labels =
        lh !== undefined && labelsFile !== undefined && labelsPath !== undefined
          ? await readItems(fn, labelsPath, labelsFile, lh, start, rows)
          : new Float64Array(0);
      const first = start;
      const lp = labelsPath;
      yield {
        path,
        format: 'npy',
        input,
        n: rows,
        firstRow: first,
        numClasses: c,
        labels,
        hasLabels: lh !== undefined,
        scores,
        locate: (row, column, argument) => {
          if (argument === 'labels' && lp !== undefined) return `${lp}: element ${first + row}`;
          const at = `${path}: row ${first + row}`;
          return column === undefined ? at : `${at}, column ${column}`;
        },
      };
    }
  } finally {
    await scoresFile?.close().catch(() => undefined);
    await labelsFile?.close().catch(() => undefined);
  }
}
