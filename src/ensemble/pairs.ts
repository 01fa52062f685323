import { fail } from '../errors/fail.js';
import type { EnsembleMatrix } from '../input/types.js';
import { weightArray } from '../input/weights.js';

/** Row weights of an ensemble metric (undefined: 1 each) and their total (internal). */
export function rowWeights(fn: string, weights: unknown, n: number): { w: Float64Array | undefined; total: number } {
  const w = weightArray(fn, weights, n);
  let total = 0;
  for (let i = 0; i < n; i++) total += w === undefined ? 1 : (w[i] as number);
  return { w, total };
}

/** Averages `measure(a, b)` over the unordered member pairs a < b; needs at least 2 members (internal). */
export function averageOverPairs(fn: string, e: EnsembleMatrix, measure: (a: number, b: number) => number): number {
  const s = e.numMembers;
  if (s < 2) fail('UM_SHAPE', fn, 'members', 'hold at least 2 members to compare', { value: s });
  let sum = 0;
  let count = 0;
  for (let a = 0; a < s; a++) {
    for (let b = a + 1; b < s; b++) {
      sum += measure(a, b);
      count++;
    }
  }
  return sum / count;
}

/** Argmax (ties → lowest index) of each row of member m (internal). */
export function memberPredictions(e: EnsembleMatrix, m: number): Int32Array {
  const { data, n, numClasses: c } = e;
  const out = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const o = (m * n + i) * c;
    let best = 0;
    for (let k = 1; k < c; k++) if ((data[o + k] as number) > (data[o + best] as number)) best = k;
    out[i] = best;
  }
  return out;
}
