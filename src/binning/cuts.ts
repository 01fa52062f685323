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
export function binsFromCuts(
  v: ArrayLike<number>,
  order: ArrayLike<number>,
  cuts: readonly number[],
  describe: 'midpoints' | 'data',
): BinAssignment {
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

/**
 * Positions in cumulative weight of the boundaries between blocks of equal sorted values (internal): `bounds[g]` is
 * the weight before block g, and `rows[g]` the sorted position where it starts; the last entries are the totals.
 * With unit weights the bounds are the row positions of the block starts, so weighted cuts reduce to {@link snapCut}.
 */
export interface WeightedBlocks {
  readonly bounds: Float64Array;
  readonly rows: Uint32Array;
  readonly total: number;
}

/** Blocks of equal values of ascending `v` with weights `w` (in the same sorted order) (internal). */
export function weightedBlocks(v: ArrayLike<number>, w: ArrayLike<number>): WeightedBlocks {
  const n = v.length;
  const bounds = new Float64Array(n + 1);
  const rows = new Uint32Array(n + 1);
  let g = 1;
  let acc = 0;
  for (let j = 0; j < n; j++) {
    if (j > 0 && v[j] !== v[j - 1]) {
      bounds[g] = acc;
      rows[g++] = j;
    }
    acc += w[j] as number;
  }
  bounds[g] = acc;
  rows[g++] = n;
  return { bounds: bounds.subarray(0, g), rows: rows.subarray(0, g), total: acc };
}

/**
 * A cut at cumulative weight `r`, moved to the nearer boundary of the block of ties it falls in (the upper one when
 * equally near) — {@link snapCut} in weight units, where a sample of weight w counts as w tied copies. Returns the
 * sorted row position of that boundary (internal).
 */
export function snapWeightedCut(blocks: WeightedBlocks, r: number): number {
  const { bounds, rows } = blocks;
  // first boundary ≥ r
  let lo = 0;
  let hi = bounds.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((bounds[mid] as number) >= r) hi = mid;
    else lo = mid + 1;
  }
  const upper = bounds[lo] as number;
  if (upper === r || lo === 0) return rows[lo] as number;
  const lower = bounds[lo - 1] as number;
  return (r - lower < upper - r ? rows[lo - 1] : rows[lo]) as number;
}

/** Bin b's positions [from, to) among n sorted values cut at `cuts` (ascending positions; cuts.length + 1 bins). */
export function binRange(cuts: readonly number[], n: number, b: number): [from: number, to: number] {
  return [b === 0 ? 0 : (cuts[b - 1] as number), b === cuts.length ? n : (cuts[b] as number)];
}

/**
 * The edges of the bins between `cuts` (ascending positions) of n sorted values read by `valueAt`: the midpoint of
 * the values either side of each cut, the extreme values outside — `binsFromCuts(…, 'midpoints')` as positions
 * (internal; the sorted runs and the two-pass bins).
 */
export function midpointEdges(
  cuts: readonly number[],
  n: number,
  valueAt: (r: number) => number,
): { lower: Float64Array; upper: Float64Array } {
  const numBins = cuts.length + 1;
  const lower = new Float64Array(numBins);
  const upper = new Float64Array(numBins);
  for (let b = 0; b < numBins; b++) {
    const [from, to] = binRange(cuts, n, b);
    lower[b] = b === 0 ? valueAt(from) : (valueAt(from - 1) + valueAt(from)) / 2;
    upper[b] = b === numBins - 1 ? valueAt(to - 1) : (valueAt(to - 1) + valueAt(to)) / 2;
  }
  return { lower, upper };
}
