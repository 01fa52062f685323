import { rowStatsColumns, rowStatsResult } from './rowStatsResult.js';
import type { RowStats, RowStatsMode } from './rowStatsTypes.js';

/**
 * The readable reference of the row-statistics pass: plain loops, sequential float64 sums, `Math.log`. The
 * WebAssembly kernel must agree with it (test/kernels/rowStats.test.ts). Internal.
 */
export function rowStatsReference(
  data: Float32Array | Float64Array,
  n: number,
  c: number,
  mode: RowStatsMode,
): RowStats {
  const { max, arg, min, sum, sumSq, xlogx } = rowStatsColumns(n, mode);
  for (let i = 0, o = 0; i < n; i++, o += c) {
    let best = 0;
    let hi = data[o] as number;
    let lo = 0;
    let s = 0;
    let q = 0;
    let l = 0;
    for (let k = 0; k < c; k++) {
      const v = data[o + k] as number;
      if (v > hi) {
        hi = v;
        best = k;
      }
      if (v < lo) lo = v;
      s += v;
      q += v * v;
      if (v > 0) l += v * Math.log(v);
    }
    max[i] = hi;
    arg[i] = best;
    min[i] = lo;
    sum[i] = s;
    if (sumSq !== undefined) sumSq[i] = q;
    if (xlogx !== undefined) xlogx[i] = l;
  }
  return rowStatsResult(mode, { max, arg, min, sum, sumSq, xlogx }, c * 2 ** -52);
}
