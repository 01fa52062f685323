import { describe, expect, it } from 'vitest';
import { dingBins, sortedDingStatistics } from '../../src/binning/dingBins.js';
import { binStatisticsUnchecked } from '../../src/binning/binStatistics.js';
import { snapCut, snapWeightedCut, weightedBlocks } from '../../src/binning/cuts.js';
import { samplesPerWeight } from '../../src/input/weights.js';
import { DEFAULT_DING } from '../../src/options/binning.js';
import type { BinAssignment, DingOptions } from '../../src/binning/types.js';
import { uniforms } from '../helpers/minstd.js';

/**
 * The algorithm as the reference code states it, one sample at a time over a comparison sort (descending, equal scores
 * in row order), with the sorted copies it needs: the oracle for the in-place walk over blocks of ties.
 */
function dingOracle(scores: number[], options: DingOptions, weights?: number[], unit = 1): BinAssignment {
  const n = scores.length;
  const w = (i: number) => (weights === undefined ? 1 : (weights[i] as number));
  const u = weights === undefined ? 1 : samplesPerWeight(weights, unit);
  const order = scores.map((_, i) => i).sort((a, b) => (scores[b] as number) - (scores[a] as number) || a - b);
  const r = order.map((i) => scores[i] as number);
  let total = 0;
  for (let i = 0; i < n; i++) total += w(i);
  const counts: number[] = [];
  let [num, rmin, rmax, target, before] = [0, Infinity, -Infinity, Infinity, 0];
  for (let i = 0; i < n; i++) {
    const x = r[i] as number;
    const open = num * u > target && (total - before) * u > options.minRemaining;
    if (open && rmin - (r[n - 1] as number) > options.minGap && x !== r[i - 1]) {
      counts.push(num);
      [num, rmin, rmax] = [0, Infinity, -Infinity];
    }
    num += w(order[i] as number);
    before += w(order[i] as number);
    rmin = Math.min(rmin, x);
    rmax = Math.max(rmax, x);
    target = rmax === rmin ? Infinity : 0.25 * (options.z / (rmax - rmin)) ** 2;
  }
  counts.push(num);
  const last = counts.length - 1;
  const numLast = counts[last] as number;
  if (last > 0 && Number.isFinite(target) && target - numLast * u > 0) {
    let moved = 0;
    for (let b = 0; b < last; b++) {
      const cb = counts[b] as number;
      const extract = Math.max(0, Math.min(Math.trunc(((target - numLast * u) * numLast) / total), cb * u - 1)) / u;
      counts[b] = cb - extract;
      moved += extract;
    }
    counts[last] = numLast + moved;
  }
  const asc = [...r].reverse();
  const ascOrder = [...order].reverse();
  const blocks = weights === undefined ? undefined : weightedBlocks(asc, ascOrder.map(w));
  const cuts = new Set<number>();
  let pos = 0;
  for (let b = 0; b < last; b++) {
    pos += counts[b] as number;
    const c = blocks === undefined ? snapCut(asc, n - pos) : snapWeightedCut(blocks, total - pos);
    if (c > 0 && c < n) cuts.add(c);
  }
  const bounds = [0, ...[...cuts].sort((a, b) => a - b), n];
  const index = new Int32Array(n);
  const lower: number[] = [];
  const upper: number[] = [];
  for (let b = 0; b + 1 < bounds.length; b++) {
    lower.push(asc[bounds[b] as number] as number);
    upper.push(asc[(bounds[b + 1] as number) - 1] as number);
    for (let j = bounds[b] as number; j < (bounds[b + 1] as number); j++) index[ascOrder[j] as number] = b;
  }
  return { numBins: bounds.length - 1, lower: Float64Array.from(lower), upper: Float64Array.from(upper), index };
}

/** Seeded scores with blocks of ties, near-ties one ulp apart, ±0 and the extremes 0 and 1. */
function hardScores(seed: number, n: number): number[] {
  return uniforms(seed, n).map((x, i) => {
    if (i % 7 === 0) return Math.round(x * 40) / 40;
    if (i % 11 === 0) return 0.5 + (i % 3) * Number.EPSILON * 0.25;
    if (i % 53 === 0) return i % 2 === 0 ? 0 : -0;
    if (i % 59 === 0) return 1;
    return 0.3 + 0.7 * x;
  });
}

const OPTIONS: DingOptions[] = [
  DEFAULT_DING,
  { z: 0.8, minRemaining: 10, minGap: 0.01 },
  { z: 3, minRemaining: 0, minGap: 0 },
];
const WEIGHTINGS: { name: string; weights: (n: number, seed: number) => number[] | undefined; unit: number }[] = [
  { name: 'no weights', weights: () => undefined, unit: 1 },
  { name: 'whole weights', weights: (n, s) => uniforms(s + 1, n).map((x) => 1 + Math.floor(x * 4)), unit: 1 },
  { name: 'relative weights', weights: (n, s) => uniforms(s + 2, n).map((x) => 0.1 + x), unit: 1 },
  // twelve decades: sums of a block of ties round differently in another order
  { name: 'wide relative weights', weights: (n, s) => uniforms(s + 4, n).map((x) => 10 ** (12 * x - 6)), unit: 1 },
  {
    name: 'scaled whole weights',
    weights: (n, s) => uniforms(s + 3, n).map((x) => 1 + Math.floor(x * 3)),
    unit: 2 ** -3,
  },
];

describe('Ding bins over blocks of ties = the reference walk one sample at a time', () => {
  for (const { name, weights, unit } of WEIGHTINGS) {
    it(`dingBins of shuffled scores, ${name}: the same bins, bit for bit`, () => {
      for (const [k, options] of OPTIONS.entries()) {
        for (const n of [1, 2, 45, 600, 5000]) {
          const s = hardScores(10 * k + n, n);
          const w = weights(n, n);
          const got = dingBins(s, options, w, unit);
          const want = dingOracle(s, options, w, unit);
          expect(got.numBins).toBe(want.numBins);
          expect(got.index).toEqual(want.index);
          expect(got.lower).toEqual(want.lower);
          expect(got.upper).toEqual(want.upper);
        }
      }
    });
    it(`sortedDingStatistics of sorted entries, ${name}: binStatistics of the reference bins, bit for bit`, () => {
      for (const [k, options] of OPTIONS.entries()) {
        for (const n of [1, 45, 600, 5000]) {
          const raw = hardScores(10 * k + n + 1, n);
          const rawW = weights(n, n + 1);
          // the canonical order: ascending scores (rows of a block in any fixed order)
          const order = raw.map((_, i) => i).sort((a, b) => (raw[a] as number) - (raw[b] as number) || b - a);
          const s = Float64Array.from(order, (i) => raw[i] as number);
          const o = Float64Array.from(order, (i) => (((raw[i] as number) * 7919 * (i + 1)) % 1 < 0.6 ? 1 : 0));
          const w = rawW === undefined ? undefined : Float64Array.from(order, (i) => rawW[i] as number);
          const got = sortedDingStatistics(s, o, w, options, unit);
          const oracle = dingOracle([...s], options, w === undefined ? undefined : [...w], unit);
          expect(got).toEqual(binStatisticsUnchecked(oracle, s, o, w));
        }
      }
    });
  }
});
