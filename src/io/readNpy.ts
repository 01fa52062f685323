import type { FileHandle } from 'node:fs/promises';
import type { ScoreKind } from '../input/types.js';
import { fileFail, openInput } from './fileError.js';
import { checkLabelsHeader, checkLength, npyHeader, readExactly, readItems, type NpyHeader } from './streamNpy.js';
import type { PredictionData } from './types.js';
import { inputOrProbs, type ReadSpec } from './readSpec.js';

/** Typed arrays view memory in the machine's byte order; `.npy` data here is little-endian. */
const LITTLE_ENDIAN = new Uint8Array(Uint16Array.of(1).buffer)[0] === 1;

/** Opens and checks a `.npy` (header, dtype readable, data exactly as long as the shape says) (internal). */
async function openNpy(fn: string, path: string): Promise<{ handle: FileHandle; h: NpyHeader }> {
  const handle = await openInput(fn, path, false);
  try {
    return { handle, h: await npyHeader(fn, path, handle) };
  } catch (error) {
    await handle.close().catch(() => undefined);
    throw error;
  }
}

/**
 * The float scores of a checked `.npy` (float32 kept as `Float32Array`) (internal). Float32 logits and
 * log-probabilities [N, C] in C order are read into the upper half of a buffer twice their size: lent to the conversion
 * (input/lent.ts, `um metrics`), their float64 probabilities are written over them there instead of beside them (the
 * lower half is not touched, so takes no memory, until then).
 */
async function readFloats(
  fn: string,
  path: string,
  handle: FileHandle,
  h: NpyHeader,
  input: ScoreKind,
): Promise<Float32Array | Float64Array> {
  const count = h.shape.reduce((a, b) => a * b, 1);
  if (!LITTLE_ENDIAN) return readItems(fn, path, handle, h, 0, count);
  // a fresh buffer, so the typed array is aligned whatever the header length
  const out =
    h.descr === '<f8'
      ? new Float64Array(count)
      : input !== 'probs' && !h.fortran && h.shape.length === 2
        ? new Float32Array(new ArrayBuffer(8 * count), 4 * count, count)
        : new Float32Array(count);
  await readExactly(fn, path, handle, new Uint8Array(out.buffer, out.byteOffset, out.byteLength), h.dataOffset);
  return out;
}

/** Row-major copy of a Fortran-ordered 2-D array. */
function toRowMajor(data: ArrayLike<number>, rows: number, cols: number): Float64Array {
  const out = new Float64Array(rows * cols);
  for (let i = 0; i < rows; i++) for (let k = 0; k < cols; k++) out[i * cols + k] = data[k * rows + i] as number;
  return out;
}

/**
 * Reads NumPy scores [N, C] or ensemble members [S, N, C] (float32 or float64) and labels [N] (any integer, float
 * or bool dtype). Both files must be regular files whose data is exactly as long as their headers declare.
 */
export async function readNpy(spec: ReadSpec): Promise<PredictionData> {
  const { fn, path, requireLabels, labels: labelsPath } = spec;
  const input = inputOrProbs(spec);
  if (labelsPath === undefined && requireLabels) {
    fileFail('UM_FILE_FORMAT', fn, path, 'holds only scores; give the labels .npy with --labels (option `labels`)');
  }
  const { handle, h } = await openNpy(fn, path);
  let scores: Float32Array | Float64Array;
  try {
    if (h.descr !== '<f4' && h.descr !== '<f8')
      fileFail('UM_FILE_FORMAT', fn, path, 'must hold little-endian float32 or float64 scores', {}, { value: h.descr });
    if (h.shape.length !== 2 && h.shape.length !== 3) {
      fileFail(
        'UM_FILE_FORMAT',
        fn,
        path,
        'must have shape [N, C] (one model) or [S, N, C] (ensemble members)',
        {},
        { value: `[${h.shape.join(', ')}]` },
      );
    }
    if (h.fortran && h.shape.length === 3)
      fileFail(
        'UM_FILE_FORMAT',
        fn,
        path,
        'is a Fortran-ordered 3-D array; save it in C order (numpy.ascontiguousarray)',
      );
    checkLength(fn, path, h);
    scores = await readFloats(fn, path, handle, h, input);
  } finally {
    await handle.close().catch(() => undefined);
  }
  const ensemble = h.shape.length === 3;
  const [sm, n, c] = (ensemble ? h.shape : [1, ...h.shape]) as [number, number, number];
  if (h.fortran) scores = toRowMajor(scores, n, c);
  const base = {
    path,
    format: 'npy' as const,
    input,
    n,
    numClasses: c,
    ...(ensemble ? { members: scores, numMembers: sm } : { scores }),
  };
  const locateScore = (row: number, column?: number, member?: number) => {
    const at = ensemble ? `${path}: member ${member ?? 0}, row ${row}` : `${path}: row ${row}`;
    return column === undefined ? at : `${at}, column ${column}`;
  };
  if (labelsPath === undefined) {
    return {
      ...base,
      labels: new Float64Array(0),
      hasLabels: false,
      locate: (row, column, _argument, member) => locateScore(row, column, member),
    };
  }
  const l = await openNpy(fn, labelsPath);
  let labels: Float64Array;
  try {
    checkLabelsHeader(fn, labelsPath, l.h, n, path);
    labels = await readItems(fn, labelsPath, l.handle, l.h, 0, n);
  } finally {
    await l.handle.close().catch(() => undefined);
  }
  return {
    ...base,
    labels,
    hasLabels: true,
    locate: (row, column, argument, member) =>
      argument === 'labels' ? `${labelsPath}: element ${row}` : locateScore(row, column, member),
  };
}
