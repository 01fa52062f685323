import { fail } from '../errors/fail.js';
import type { BinAssignment, Closed } from './types.js';

/** Assigns scores to user-given bins e_0 < e_1 < … < e_B; a score outside [e_0, e_B] is an error. */
export function edgeBins(
  fn: string,
  scores: ArrayLike<number>,
  edges: readonly number[],
  closed: Closed,
): BinAssignment {
  const numBins = edges.length - 1;
  const first = edges[0] as number;
  const last = edges[numBins] as number;
  const n = scores.length;
  const index = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const x = scores[i] as number;
    if (!(x >= first && x <= last)) {
      fail('UM_OUT_OF_BINS', fn, 'scores', `lie within the bin edges [${first}, ${last}]`, { index: [i], value: x });
    }
    let lo = 1;
    let hi = numBins; // search the inner edges e_1 … e_{B−1}
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const e = edges[mid] as number;
      if (closed === 'left' ? e <= x : e < x) lo = mid + 1;
      else hi = mid;
    }
    index[i] = lo - 1;
  }
  return {
    numBins,
    lower: Float64Array.from(edges.slice(0, numBins)),
    upper: Float64Array.from(edges.slice(1)),
    index,
  };
}
