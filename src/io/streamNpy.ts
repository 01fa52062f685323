import { open, type FileHandle } from 'node:fs/promises';
import type { ScoreKind } from '../input/types.js';
import { BATCH_ROWS, type PredictionBatch } from './batches.js';
import { fileFail, readFail } from './fileError.js';

/** The header of a `.npy` file: dtype, order, shape and where the data starts. */
interface NpyHeader {
  descr: string;
  fortran: boolean;
  shape: number[];
  dataOffset: number;
  itemSize: number;
  fileSize: number;
}

const READERS: Record<string, (v: DataView, at: number) => number> = {
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

/** Reads and checks the header of a `.npy` file (format versions 1–3) (internal). */
export async function npyHeader(fn: string, path: string, handle: FileHandle): Promise<NpyHeader> {
  const { size } = await handle.stat();
  const head = Buffer.alloc(Math.min(size, 65536 + 12));
  await handle.read(head, 0, head.length, 0);
  if (head.length < 10 || head.toString('latin1', 0, 6) !== '\x93NUMPY') fileFail('UM_FILE_FORMAT', fn, path, 'is not a NumPy .npy array (no \\x93NUMPY magic)', { byte: 0 });
  const major = head[6] as number;
  const lenBytes = major === 1 ? 2 : 4;
  const len = major === 1 ? head.readUInt16LE(8) : head.readUInt32LE(8);
  const dataOffset = 8 + lenBytes + len;
  if (dataOffset > size) fileFail('UM_FILE_FORMAT', fn, path, `is truncated inside its header (${size} bytes, the header needs ${dataOffset})`, { byte: size });
  const text = head.toString('latin1', 8 + lenBytes, dataOffset);
  const descr = /'descr':\s*'([^']+)'/.exec(text)?.[1];
  const fortran = /'fortran_order':\s*True/.test(text);
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(text)?.[1];
  if (descr === undefined || shapeText === undefined) fileFail('UM_FILE_FORMAT', fn, path, 'has a malformed .npy header', { byte: 8 + lenBytes }, { value: text.trim() });
  const shape = shapeText
    .split(',')
    .map((x) => x.trim())
    .filter((x) => x !== '')
    .map(Number);
  const itemSize = Number(/(\d+)$/.exec(descr)?.[1] ?? NaN);
  return { descr, fortran, shape, dataOffset, itemSize, fileSize: size };
}

/** Checks that the data of `count` items is all there; names the first row that is cut off (internal). */
function checkLength(fn: string, path: string, h: NpyHeader, rowItems: number): void {
  const need = h.dataOffset + h.shape.reduce((a, b) => a * b, 1) * h.itemSize;
  if (h.fileSize < need) {
    const rowsPresent = Math.floor((h.fileSize - h.dataOffset) / (rowItems * h.itemSize));
    fileFail('UM_FILE_FORMAT', fn, path, `is truncated: the header promises ${need} bytes, the file has ${h.fileSize}; row ${rowsPresent} is cut off`, { byte: h.fileSize });
  }
}

/**
 * Streams a NumPy scores file [N, C] (C order, float32/float64, little-endian) and its labels [N] in batches of
 * `batchRows` rows, reading only each batch's bytes. Fortran-ordered or 3-D (ensemble) files are not streamed
 * (`readPredictions` reads them whole).
 */
export async function* streamNpy(fn: string, path: string, labelsPath: string | undefined, input: ScoreKind, requireLabels: boolean, batchRows = BATCH_ROWS, rowRange?: [number, number]): AsyncGenerator<PredictionBatch> {
  if (labelsPath === undefined && requireLabels) fileFail('UM_FILE_FORMAT', fn, path, 'holds only scores; give the labels .npy with --labels (option `labels`)');
  let scoresFile: FileHandle | undefined;
  let labelsFile: FileHandle | undefined;
  try {
    try {
      scoresFile = await open(path, 'r');
    } catch (error) {
      readFail(fn, path, error);
    }
    const h = await npyHeader(fn, path, scoresFile);
    if (h.descr !== '<f8' && h.descr !== '<f4') fileFail('UM_FILE_FORMAT', fn, path, 'must hold little-endian float32 or float64 scores to be streamed', {}, { value: h.descr });
    if (h.shape.length !== 2 || h.fortran) fileFail('UM_FILE_FORMAT', fn, path, 'must be a C-ordered [N, C] array to be streamed (read ensembles and Fortran-ordered files whole)', {}, { value: `[${h.shape.join(', ')}]` });
    const [n, c] = h.shape as [number, number];
    if (n === 0) fileFail('UM_EMPTY', fn, path, 'has no rows');
    checkLength(fn, path, h, c);
    let lh: NpyHeader | undefined;
    if (labelsPath !== undefined) {
      try {
        labelsFile = await open(labelsPath, 'r');
      } catch (error) {
        readFail(fn, labelsPath, error);
      }
      lh = await npyHeader(fn, labelsPath, labelsFile);
      if (READERS[lh.descr] === undefined) fileFail('UM_FILE_FORMAT', fn, labelsPath, 'must hold little-endian integer or float labels', {}, { value: lh.descr });
      if (lh.shape.length !== 1) fileFail('UM_FILE_FORMAT', fn, labelsPath, 'must have shape [N]', {}, { value: `[${lh.shape.join(', ')}]` });
      if (lh.shape[0] !== n) fileFail('UM_FILE_FORMAT', fn, labelsPath, `must hold one label per row of ${path} (${n})`, {}, { value: lh.shape[0] });
      checkLength(fn, labelsPath, lh, 1);
    }
    const read = READERS[h.descr] as (v: DataView, at: number) => number;
    const [from, to] = rowRange ?? [0, n];
    for (let start = from; start < Math.min(n, to); start += batchRows) {
      const rows = Math.min(batchRows, Math.min(n, to) - start);
      const bytes = Buffer.alloc(rows * c * h.itemSize);
      const got = (await scoresFile.read(bytes, 0, bytes.length, h.dataOffset + start * c * h.itemSize)).bytesRead;
      if (got < bytes.length) fileFail('UM_FILE_FORMAT', fn, path, `ended early at row ${start + Math.floor(got / (c * h.itemSize))}`, { byte: h.dataOffset + start * c * h.itemSize + got });
      const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
      const scores = new Float64Array(rows * c);
      for (let j = 0; j < scores.length; j++) scores[j] = read(view, j * h.itemSize);
      let labels = new Float64Array(0);
      if (lh !== undefined && labelsFile !== undefined) {
        const lb = Buffer.alloc(rows * lh.itemSize);
        await labelsFile.read(lb, 0, lb.length, lh.dataOffset + start * lh.itemSize);
        const lv = new DataView(lb.buffer, lb.byteOffset, lb.byteLength);
        const lread = READERS[lh.descr] as (v: DataView, at: number) => number;
        labels = new Float64Array(rows);
        for (let j = 0; j < rows; j++) labels[j] = lread(lv, j * lh.itemSize);
      }
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
