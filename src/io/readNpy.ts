import { readFile } from 'node:fs/promises';
import { parse, type NpyArray } from 'npyjs';
import type { ScoreKind } from '../input/types.js';
import { fileFail, readFail } from './fileError.js';
import type { PredictionData } from './types.js';

async function loadNpy(fn: string, path: string): Promise<NpyArray> {
  let buf: Buffer;
  try {
    buf = await readFile(path);
  } catch (error) {
    readFail(fn, path, error);
  }
  try {
    return parse(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength) as ArrayBuffer);
  } catch (error) {
    fileFail('UM_FILE_FORMAT', fn, path, `is not a NumPy .npy array (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** Row-major copy of a Fortran-ordered 2-D array. */
function toRowMajor(data: ArrayLike<number>, rows: number, cols: number): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let k = 0; k < cols; k++) out[i * cols + k] = data[k * rows + i] as number;
  return out;
}

/** Reads NumPy scores [N, C] or ensemble members [S, N, C] (float32 or float64) and labels [N] (any integer or float dtype). */
export async function readNpy(fn: string, path: string, labelsPath: string | undefined, input: ScoreKind, requireLabels: boolean): Promise<PredictionData> {
  if (labelsPath === undefined && requireLabels) {
    fileFail('UM_FILE_FORMAT', fn, path, 'holds only scores; give the labels .npy with --labels (option `labels`)');
  }
  const s = await loadNpy(fn, path);
  if (s.dtype !== 'f4' && s.dtype !== 'f8') fileFail('UM_FILE_FORMAT', fn, path, 'must hold float32 or float64 scores', {}, { value: s.dtype });
  if (s.shape.length !== 2 && s.shape.length !== 3) {
    fileFail('UM_FILE_FORMAT', fn, path, 'must have shape [N, C] (one model) or [S, N, C] (ensemble members)', {}, { value: `[${s.shape.join(', ')}]` });
  }
  const ensemble = s.shape.length === 3;
  const [sm, n, c] = (ensemble ? s.shape : [1, ...s.shape]) as [number, number, number];
  let scores: Float32Array | Float64Array = s.data as Float32Array | Float64Array;
  if (s.fortranOrder) {
    if (ensemble) fileFail('UM_FILE_FORMAT', fn, path, 'is a Fortran-ordered 3-D array; save it in C order (numpy.ascontiguousarray)');
    scores = toRowMajor(scores, n, c);
  }
  const base = { path, format: 'npy' as const, input, n, numClasses: c, ...(ensemble ? { members: scores, numMembers: sm } : { scores }) };
  const locateScore = (row: number, column?: number, member?: number) => {
    const at = ensemble ? `${path}: member ${member ?? 0}, row ${row}` : `${path}: row ${row}`;
    return column === undefined ? at : `${at}, column ${column}`;
  };
  if (labelsPath === undefined) {
    return { ...base, labels: new Float64Array(0), hasLabels: false, locate: (row, column, _argument, member) => locateScore(row, column, member) };
  }
  const l = await loadNpy(fn, labelsPath);
  if (l.shape.length !== 1) fileFail('UM_FILE_FORMAT', fn, labelsPath, 'must have shape [N]', {}, { value: `[${l.shape.join(', ')}]` });
  const raw = l.data as unknown as ArrayLike<number | bigint>;
  if (typeof l.dtype === 'string' && (l.dtype.startsWith('U') || l.dtype === 'c8' || l.dtype === 'c16')) {
    fileFail('UM_FILE_FORMAT', fn, labelsPath, 'must hold integer labels', {}, { value: l.dtype });
  }
  if (raw.length !== n) {
    fileFail('UM_FILE_FORMAT', fn, labelsPath, `must hold one label per row of ${path} (${n})`, {}, { value: raw.length });
  }
  const labels = Float64Array.from({ length: raw.length }, (_, i) => Number(raw[i]));
  return {
    ...base,
    labels,
    hasLabels: true,
    locate: (row, column, argument, member) => (argument === 'labels' ? `${labelsPath}: element ${row}` : locateScore(row, column, member)),
  };
}
