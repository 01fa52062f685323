import { argsort } from '../kernels/argsort.js';
import { gather } from '../math/gather.js';
import { binsFromCuts, snapCut, snapWeightedCut, weightedBlocks } from './cuts.js';
import type { BinAssignment, DingOptions } from './types.js';
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
  const wOf = (i: number) => (weights === undefined ? 1 : (weights[i] as number));
  const { z, minRemaining, minGap } = options;
  // samples per unit of weight: the scale of whole weights, or N/Σw for relative weights
  const u = weights === undefined ? 1 : samplesPerWeight(weights, unit);
  // ascending sort of (value, index); we walk it from the top to get the descending order
  const order = argsort(scores, true);
  const r = gather(scores, order);
  const globalMin = r[n - 1] as number;
  let total = 0;
  for (let i = 0; i < n; i++) total += wOf(i);

  const counts: number[] = [];
  let num = 0;
  let rmin = Infinity;
  let rmax = -Infinity;
  let target = Infinity;
  let before = 0;
  for (let i = 0; i < n; i++) {
    const x = r[i] as number;
    if (num * u > target && (total - before) * u > minRemaining && rmin - globalMin > minGap && x !== r[i - 1]) {
      counts.push(num);
      num = 0;
      rmin = Infinity;
      rmax = -Infinity;
    }
    const w = wOf(order[i] as number);
    num += w;
    before += w;
    if (x < rmin) rmin = x;
    if (x > rmax) rmax = x;
    target = rmax === rmin ? Infinity : 0.25 * (z / (rmax - rmin)) ** 2;
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

  // Cut positions in the descending order, expressed on the ascending array so snapCut can be reused.
  const asc = Float64Array.from(r).reverse();
  const ascOrder = Uint32Array.from(order).reverse();
  const blocks = weights === undefined ? undefined : weightedBlocks(asc, gather(weights, ascOrder));
  const ascCuts: number[] = [];
  let pos = 0;
  for (let b = 0; b < last; b++) {
    pos += counts[b] as number;
    const c = blocks === undefined ? snapCut(asc, n - pos) : snapWeightedCut(blocks, total - pos);
    if (c > 0 && c < n && c !== ascCuts[ascCuts.length - 1]) ascCuts.push(c);
  }
  ascCuts.sort((a, b) => a - b);
  const cuts = ascCuts.filter((c, j) => j === 0 || c !== ascCuts[j - 1]);
  // ascending position j holds the sample at descending position n − 1 − j
  return binsFromCuts(asc, ascOrder, cuts, 'data');
}
