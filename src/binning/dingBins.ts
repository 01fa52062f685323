import { argsort } from '../kernels/argsort.js';
import { gather } from '../math/gather.js';
import { runStatistics } from './binStatistics.js';
import { binRange, snapCut, snapWeightedCut, type WeightedBlocks } from './cuts.js';
import type { Bin, BinAssignment, DingOptions } from './types.js';
import { samplesPerWeight } from '../input/weights.js';

/**
 * Ding et al.'s adaptive binning, following the authors' reference code (github.com/yding5/AdaptiveBinning),
 * with one change: blocks of equal scores are never split between bins, so the result does not depend on row
 * order. Without ties it is the reference algorithm step for step.
 *
 * 1. Sort descending. Grow the current bin one sample at a time; its target size is ¼·(z/(max − min))² (∞ while
 *    all its scores are equal). Before adding a sample, open a new bin if the current one holds more than its target,
 *    more than `minRemaining` samples remain, the bin's minimum exceeds the global minimum by more than `minGap`,
 *    and the sample's score differs from the previous one.
 * 2. If the last bin holds fewer samples than its (finite) target, every earlier bin gives
 *    ⌊needed · n_last / N⌋ samples to it (the reference code's rule; at most n_b − 1 so no bin empties).
 * 3. Cut the sorted scores with the final sizes; cuts inside a block of ties move to the block's nearer end.
 *
 * With weights every count is a weight sum (a sample of weight w counts as w tied copies), so integer weights give the
 * bins of the repeated samples — also when they are scaled (`unit`: a weight w stands for w·unit samples, beyond
 * float64 if need be). Weights that are not whole numbers are relative: a sample counts w·N/Σw (N rows), so the
 * bins do not change when every weight is multiplied by a constant.
 */
export function dingBins(
  scores: ArrayLike<number>,
  options: DingOptions,
  weights?: ArrayLike<number>,
  unit = 1,
): BinAssignment {
  const n = scores.length;
  // stable ascending order: equal scores keep their row order, the order the descending walk reads each block in
  const order = argsort(scores);
  const asc = gather(scores, order);
  const cuts = dingCuts(asc, order, options, weights, unit);
  const index = new Int32Array(n);
  const bounds = [0, ...cuts, n];
  for (let b = 0; b + 1 < bounds.length; b++) {
    for (let j = bounds[b] as number; j < (bounds[b + 1] as number); j++) index[order[j] as number] = b;
  }
  return { numBins: cuts.length + 1, ...dataEdges(asc, cuts), index };
}

/**
 * {@link dingBins}' bins of entries already sorted ascending (a kept store's canonical order; `weights` in that
 * order), with their statistics: the cuts found on the sorted scores in place and the bins summed run by run — the
 * same bins as `binStatisticsUnchecked(dingBins(…))`, without its sorted copies and bin of every entry (internal).
 */
export function sortedDingStatistics(
  scores: Float64Array,
  outcomes: Float64Array | Uint8Array,
  weights: Float64Array | undefined,
  options: DingOptions,
  unit: number,
): Bin[] {
  const cuts = dingCuts(scores, undefined, options, weights, unit);
  return runStatistics(scores, outcomes, weights, cuts, dataEdges(scores, cuts));
}

/**
 * Ding's cuts (ascending positions, each between two blocks of ties) of ascending scores `asc`; `order[j]` is the row
 * of sorted position j (the identity when absent), `weights` are by row. Blocks of ties are read from the highest
 * down, each in ascending position — the stable descending order — so weight sums add in the same order whatever
 * the input order (internal).
 */
function dingCuts(
  asc: ArrayLike<number>,
  order: ArrayLike<number> | undefined,
  options: DingOptions,
  weights: ArrayLike<number> | undefined,
  unit: number,
): number[] {
  const n = asc.length;
  const rowOf = (j: number) => (order === undefined ? j : (order[j] as number));
  const wOf = (j: number) => (weights === undefined ? 1 : (weights[rowOf(j)] as number));
  const { z, minRemaining, minGap } = options;
  // samples per unit of weight: the scale of whole weights, or N/Σw for relative weights
  const u = weights === undefined ? 1 : samplesPerWeight(weights, unit);
  const globalMin = asc[0] as number;
  let total = 0;
  if (weights === undefined) total = n;
  else for (let i = 0; i < n; i++) total += weights[i] as number;

  const counts: number[] = [];
  let num = 0;
  let rmin = Infinity;
  let rmax = -Infinity;
  let target = Infinity;
  let before = 0;
  for (let end = n; end > 0;) {
    const x = asc[end - 1] as number;
    let start = end - 1;
    while (start > 0 && asc[start - 1] === x) start--;
    // a new bin opens only before the first sample of a block (the score differs from the previous one)
    if (num * u > target && (total - before) * u > minRemaining && rmin - globalMin > minGap) {
      counts.push(num);
      num = 0;
      rmin = Infinity;
      rmax = -Infinity;
    }
    for (let j = start; j < end; j++) {
      const w = wOf(j);
      num += w;
      before += w;
      if (x < rmin) rmin = x;
      if (x > rmax) rmax = x;
      target = rmax === rmin ? Infinity : 0.25 * (z / (rmax - rmin)) ** 2;
    }
    end = start;
  }
  counts.push(num);

  const last = counts.length - 1;
  const numLast = counts[last] as number;
  if (last > 0 && Number.isFinite(target) && target - numLast * u > 0) {
    // in samples (numLast/total is a ratio), then back to weight units
    const needed = target - numLast * u;
    let moved = 0;
    for (let b = 0; b < last; b++) {
      const cb = counts[b] as number;
      const extract = Math.max(0, Math.min(Math.trunc((needed * numLast) / total), cb * u - 1)) / u;
      counts[b] = cb - extract;
      moved += extract;
    }
    counts[last] = numLast + moved;
  }

  // cut positions counted from the top, expressed on the ascending scores
  const blocks = weights === undefined ? undefined : descendingBlocks(asc, wOf);
  const ascCuts: number[] = [];
  let pos = 0;
  for (let b = 0; b < last; b++) {
    pos += counts[b] as number;
    const c = blocks === undefined ? snapCut(asc, n - pos) : snapWeightedCut(blocks, total - pos);
    if (c > 0 && c < n && c !== ascCuts[ascCuts.length - 1]) ascCuts.push(c);
  }
  ascCuts.sort((a, b) => a - b);
  return ascCuts.filter((c, j) => j === 0 || c !== ascCuts[j - 1]);
}

/**
 * `weightedBlocks` of the ascending scores with each block's weights added from its last position down (the order
 * of the descending walk reversed, as the cuts have always summed them), sized by the number of blocks.
 */
function descendingBlocks(asc: ArrayLike<number>, wOf: (j: number) => number): WeightedBlocks {
  const n = asc.length;
  let g = 1;
  for (let j = 1; j < n; j++) if (asc[j] !== asc[j - 1]) g++;
  const bounds = new Float64Array(g + 1);
  const rows = new Uint32Array(g + 1);
  let acc = 0;
  g = 0;
  for (let start = 0; start < n;) {
    let end = start + 1;
    while (end < n && asc[end] === asc[start]) end++;
    bounds[g] = acc;
    rows[g++] = start;
    for (let j = end - 1; j >= start; j--) acc += wOf(j);
    start = end;
  }
  bounds[g] = acc;
  rows[g] = n;
  return { bounds, rows, total: acc };
}

/**
 * Each bin described by its own smallest and largest score, read as the descending walk meets them: the last
 * position of the bin's lowest block and the first of its highest (a block's scores are equal; this keeps the sign
 * of a zero where −0 and 0 tie).
 */
function dataEdges(asc: ArrayLike<number>, cuts: readonly number[]): { lower: Float64Array; upper: Float64Array } {
  const n = asc.length;
  const numBins = cuts.length + 1;
  const lower = new Float64Array(numBins);
  const upper = new Float64Array(numBins);
  for (let b = 0; b < numBins; b++) {
    const [from, to] = binRange(cuts, n, b);
    let lo = from;
    while (lo + 1 < to && asc[lo + 1] === asc[from]) lo++;
    let hi = to - 1;
    while (hi > from && asc[hi - 1] === asc[to - 1]) hi--;
    lower[b] = asc[lo] as number;
    upper[b] = asc[hi] as number;
  }
  return { lower, upper };
}
