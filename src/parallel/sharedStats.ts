/** Row statistics laid out in one SharedArrayBuffer: five float64 columns of n, then one int32 column (internal). */
export interface SharedStats {
  max: Float64Array;
  min: Float64Array;
  sum: Float64Array;
  sumSq: Float64Array;
  xlogx: Float64Array;
  arg: Int32Array;
}

/** One worker's share of a parallel row pass (plain, structured-cloneable; the buffers are shared, not copied). */
export interface StatsTask {
  data: SharedArrayBuffer;
  byteOffset: number;
  f32: boolean;
  n: number;
  c: number;
  start: number;
  end: number;
  mode: number;
  out: SharedArrayBuffer;
}

/** Bytes of the shared statistics of n rows. */
export function statsBytes(n: number): number {
  return n * (5 * 8 + 4);
}

/** Typed views of the shared statistics. */
export function viewsOf(buffer: SharedArrayBuffer, n: number): SharedStats {
  return {
    max: new Float64Array(buffer, 0, n),
    min: new Float64Array(buffer, 8 * n, n),
    sum: new Float64Array(buffer, 16 * n, n),
    sumSq: new Float64Array(buffer, 24 * n, n),
    xlogx: new Float64Array(buffer, 32 * n, n),
    arg: new Int32Array(buffer, 40 * n, n),
  };
}
