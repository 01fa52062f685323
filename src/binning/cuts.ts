import type { BinAssignment } from './types.js';

/**
 * Moves a cut at sorted position `r` (between r − 1 and r) off a block of equal values: to the nearer end of the
 * block, the upper end when equally near. `v` is ascending.
 */
export function snapCut(v: ArrayLike<number>, r: number): number {
  const n = v.length;
  if (r <= 0 || r >= n || v[r - 1] !== v[r]) return r;
  const x = v[r] as number;
  let s = r - 1;
  while (s > 0 && v[s - 1] === x) s--;
  let e = r + 1;
  while (e < n && v[e] === x) e++;
  return r - s < e - r ? s : e;
}

/**
 * Bins from ascending cut positions over sorted values; `order[j]` is the sample at sorted position j. Bins are
 * described by the midpoints between neighbouring groups (outer edges: the extreme scores), or by each group's own
 * smallest and largest score (`'data'`).
 */
export function binsFromCuts(v: ArrayLike<number>, order: ArrayLike<number>, cuts: readonly number[], describe: 'midpoints' | 'data'): BinAssignment {
  const n = v.length;
  const bounds = [0, ...cuts, n];
  const numBins = bounds.length - 1;
  const lower = new Float64Array(numBins);
  const upper = new Float64Array(numBins);
  const index = new Int32Array(n);
  for (let b = 0; b < numBins; b++) {
    const start = bounds[b] as number;
    const end = bounds[b + 1] as number;
    if (describe === 'data' || b === 0) lower[b] = v[start] as number;
    else lower[b] = ((v[start - 1] as number) + (v[start] as number)) / 2;
    if (describe === 'data' || b === numBins - 1) upper[b] = v[end - 1] as number;
    else upper[b] = ((v[end - 1] as number) + (v[end] as number)) / 2;
    for (let j = start; j < end; j++) index[order[j] as number] = b;
  }
  return { numBins, lower, upper, index };
}
