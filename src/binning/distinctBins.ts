import { argsortAscending } from './numpy.js';
import type { BinAssignment } from './types.js';

/**
 * One bin per distinct score, lowest first; each bin's lower and upper edge is its score. This is
 * verified_calibration's `get_discrete_bins` (edges at the midpoints between distinct values), for models whose
 * outputs take few values.
 */
export function distinctBins(scores: ArrayLike<number>): BinAssignment {
  const n = scores.length;
  const order = argsortAscending(scores);
  const index = new Int32Array(n);
  const values: number[] = [];
  for (let j = 0; j < n; j++) {
    const i = order[j] as number;
    const v = scores[i] as number;
    if (values.length === 0 || v !== values[values.length - 1]) values.push(v);
    index[i] = values.length - 1;
  }
  return { numBins: values.length, lower: Float64Array.from(values), upper: Float64Array.from(values), index };
}
