import type { RowStats, RowStatsMode } from './rowStatsTypes.js';

/** Assembles a {@link RowStats} with exactly the columns its mode computes (internal; shared by both backends). */
export function rowStatsResult(
  mode: RowStatsMode,
  columns: {
    max: Float64Array;
    arg: Int32Array;
    min: Float64Array;
    sum: Float64Array;
    sumSq: Float64Array | undefined;
    xlogx: Float64Array | undefined;
  },
  sumSlack: number,
): RowStats {
  const { max, arg, min, sum, sumSq, xlogx } = columns;
  const base = { mode, max, arg, min, sum, sumSlack };
  if (xlogx !== undefined && sumSq !== undefined) return { ...base, sumSq, xlogx };
  if (sumSq !== undefined) return { ...base, sumSq };
  return base;
}

/** Fresh output columns of n rows for `mode` (Σp² from mode 1, Σp·ln p in mode 2) (internal). */
export function rowStatsColumns(
  n: number,
  mode: RowStatsMode,
): {
  max: Float64Array;
  arg: Int32Array;
  min: Float64Array;
  sum: Float64Array;
  sumSq: Float64Array | undefined;
  xlogx: Float64Array | undefined;
} {
  return {
    max: new Float64Array(n),
    arg: new Int32Array(n),
    min: new Float64Array(n),
    sum: new Float64Array(n),
    sumSq: mode >= 1 ? new Float64Array(n) : undefined,
    xlogx: mode === 2 ? new Float64Array(n) : undefined,
  };
}
