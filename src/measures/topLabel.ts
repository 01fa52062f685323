import type { ProbMatrix } from '../input/types.js';
import { rowStatsOf } from '../kernels/rowStats.js';

/** Predicted class (first maximal index) and its probability for every row. Internal kernel. */
export interface TopLabel {
  readonly predicted: Int32Array;
  readonly confidence: Float64Array;
}

/**
 * Argmax (ties → lowest class index) and max probability of every row, from the fused row pass (shared by every metric
 * of one call); fresh arrays the caller may modify.
 */
export function topLabel(p: ProbMatrix): TopLabel {
  const stats = rowStatsOf(p, 0);
  return { predicted: stats.arg.slice(), confidence: stats.max.slice() };
}
