import { binsFromSums } from '../../src/binning/binStatistics.js';
import { equalWidthBins, equalWidthIndex, equalWidthEdges } from '../../src/binning/equalWidth.js';
import type { Bin, EqualWidthRule, Precision } from '../../src/binning/types.js';
import { Fsum } from './fsum.js';

/**
 * Brute-force class-wise bins (test/accumulate/classSweep.test.ts): the explicit (p_ik, 1[y_i = k], w_i) pairs of one
 * class, binned by the constructions' definitions written out with plain loops and summed exactly (Shewchuk), so the
 * library's class columns, sweeps and selections are checked against nothing they share but `binsFromSums` (the one
 * formula from sums to means) and the equal-width rules' own index function.
 */

/** The pairs of class k above `threshold` (`null`: all), in row order, at the precision. */
export interface ClassPairs {
  readonly scores: number[];
  readonly outcomes: number[];
  readonly weights: number[] | undefined;
  readonly unit: number;
}

export function classPairs(
  data: ArrayLike<number>,
  labels: ArrayLike<number>,
  weights: ArrayLike<number> | undefined,
  numClasses: number,
  k: number,
  threshold: number | null,
  precision: Precision,
  unit = 1,
): ClassPairs {
  const scores: number[] = [];
  const outcomes: number[] = [];
  const w: number[] = [];
  for (let i = 0; i < labels.length; i++) {
    const raw = data[i * numClasses + k] as number;
    const v = precision === 'float32' ? Math.fround(raw) : raw;
    if (threshold !== null && !(v > threshold)) continue;
    scores.push(v);
    outcomes.push(labels[i] === k ? 1 : 0);
    w.push(weights === undefined ? 1 : (weights[i] as number));
  }
  return { scores, outcomes, weights: weights === undefined ? undefined : w, unit };
}

/** Bins from index ranges of (sorted or not) pairs: exact sums per bin, `null` without pairs. */
function binsOf(
  pairs: ClassPairs,
  binOf: (j: number) => number,
  numBins: number,
  lower: ArrayLike<number>,
  upper: ArrayLike<number>,
): Bin[] {
  const count = new Float64Array(numBins);
  const sums = Array.from({ length: numBins }, () => ({ w: new Fsum(), s: new Fsum(), o: new Fsum() }));
  const total = new Fsum();
  pairs.scores.forEach((s, j) => {
    const b = binOf(j);
    const w = pairs.weights === undefined ? 1 : (pairs.weights[j] as number);
    const sum = sums[b] as (typeof sums)[number];
    count[b] = (count[b] as number) + 1;
    sum.w.add(w);
    // the library sums the rounded products w·s, as a weighted mean does
    sum.s.add(pairs.weights === undefined ? s : w * s);
    if (pairs.outcomes[j] === 1) sum.o.add(w);
    total.add(w);
  });
  const value = (f: (x: (typeof sums)[number]) => Fsum) => Float64Array.from(sums, (x) => f(x).value());
  return binsFromSums(
    lower,
    upper,
    count,
    value((x) => x.w),
    value((x) => x.s),
    value((x) => x.o),
    total.value(),
  );
}

/** Equal-width bins of the pairs: each pair's bin from the rule's own index function. */
export function referenceEqualWidth(
  pairs: ClassPairs,
  bins: number,
  rule: EqualWidthRule,
  precision: Precision,
): Bin[] | null {
  if (pairs.scores.length === 0) return null;
  const { numBins, lower, upper } = equalWidthBins([], bins, rule, precision);
  const edges = equalWidthEdges(bins, rule, precision);
  return binsOf(
    pairs,
    (j) => equalWidthIndex(pairs.scores[j] as number, bins, rule, precision, edges),
    numBins,
    lower,
    upper,
  );
}

/** The pairs in the order of the equal-mass definition, with their blocks of equal scores (see referenceQuantile). */
interface SortedPairs {
  readonly v: number[];
  readonly o: number[];
  readonly w: number[];
  /** The first row and the cumulative weight before it of every block of equal scores, then n and the total. */
  readonly startRow: number[];
  readonly startWeight: number[];
  readonly acc: number;
  /** Whether the weights are relative (not whole at the pairs' unit). */
  readonly relative: boolean;
}

/**
 * The sort of each pairs object, made once: the tests bin the same pairs with several bin counts (1, 4, 15), which
 * differ only in their cuts (the sorts were most of the brute force's time).
 */
const sortedCache = new WeakMap<ClassPairs, SortedPairs>();

function sortedPairs(pairs: ClassPairs): SortedPairs {
  const known = sortedCache.get(pairs);
  if (known !== undefined) return known;
  const n = pairs.scores.length;
  const s = pairs.scores;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => (s[a] as number) - (s[b] as number) || a - b);
  const v = order.map((i) => s[i] as number);
  const o = order.map((i) => pairs.outcomes[i] as number);
  const w = order.map((i) => (pairs.weights === undefined ? 1 : (pairs.weights[i] as number)));
  // ties: outcome 0 before 1, then ascending weight (the scores keep their stable order); a block of one score is
  // in order already
  for (let a = 0; a < n;) {
    let b = a + 1;
    while (b < n && v[b] === v[a]) b++;
    if (b - a > 1) {
      const block = Array.from({ length: b - a }, (_, j) => [o[a + j] as number, w[a + j] as number] as const).sort(
        (x, y) => x[0] - y[0] || x[1] - y[1],
      );
      block.forEach(([oo, ww], j) => {
        o[a + j] = oo;
        w[a + j] = ww;
      });
    }
    a = b;
  }
  // the start (row and cumulative weight) of every block of equal scores, and the totals
  const startRow: number[] = [];
  const startWeight: number[] = [];
  let acc = 0;
  for (let j = 0; j < n; j++) {
    if (j === 0 || v[j] !== v[j - 1]) {
      startRow.push(j);
      startWeight.push(acc);
    }
    acc += w[j] as number;
  }
  startRow.push(n);
  startWeight.push(acc);
  const weighted = pairs.weights !== undefined;
  // whether the weights are relative: their sum in the sorted order, as the cuts see them
  let sum = 0;
  let whole = true;
  for (const x of weighted ? w : []) {
    sum += x;
    if (!Number.isInteger(x * pairs.unit)) whole = false;
  }
  const relative = weighted && (whole ? pairs.unit : n / sum) !== pairs.unit;
  const sorted = { v, o, w, startRow, startWeight, acc, relative };
  sortedCache.set(pairs, sorted);
  return sorted;
}

/**
 * This library's equal-mass (`'quantile'`) bins by their definition: the pairs sorted by score (stably: ±0 equal, in
 * row order), ties ordered by outcome then weight; cuts at round(k·N/B) rows — with weights at floor(k·W/B + ½) of
 * cumulative weight (k·W/B beyond scale 1), or at the weight of round(k·N/B) rows when the weights are relative (not
 * whole) — each moved to the nearer boundary between distinct scores (the upper one when equally near); bins described
 * by the extreme scores and the midpoints between neighbouring groups.
 */
export function referenceQuantile(pairs: ClassPairs, bins: number): Bin[] | null {
  const n = pairs.scores.length;
  if (n === 0) return null;
  const { v, o, w, startRow, startWeight, acc, relative } = sortedPairs(pairs);
  const weighted = pairs.weights !== undefined;
  const units = weighted ? startWeight : startRow;
  const cuts: number[] = [];
  for (let k = 1; k < bins; k++) {
    const rows = Math.floor((2 * k * n + bins) / (2 * bins));
    const target = !weighted
      ? rows
      : relative
        ? (rows * acc) / n
        : pairs.unit === 1
          ? Math.floor((k * acc) / bins + 0.5)
          : (k * acc) / bins;
    // the nearer block boundary (the upper one when equally near)
    let g = 0;
    while (g < units.length - 1 && (units[g] as number) < target) g++;
    let r: number;
    if (units[g] === target || g === 0) r = startRow[g] as number;
    else
      r = (target - (units[g - 1] as number) < (units[g] as number) - target ? startRow[g - 1] : startRow[g]) as number;
    if (r > 0 && r < n && r !== cuts[cuts.length - 1]) cuts.push(r);
  }
  const bounds = [0, ...cuts, n];
  const numBins = bounds.length - 1;
  const lower = new Float64Array(numBins);
  const upper = new Float64Array(numBins);
  const binOfSorted = new Int32Array(n);
  for (let b = 0; b < numBins; b++) {
    const a = bounds[b] as number;
    const e = bounds[b + 1] as number;
    lower[b] = b === 0 ? (v[a] as number) : ((v[a - 1] as number) + (v[a] as number)) / 2;
    upper[b] = b === numBins - 1 ? (v[e - 1] as number) : ((v[e - 1] as number) + (v[e] as number)) / 2;
    binOfSorted.fill(b, a, e);
  }
  const sorted: ClassPairs = { scores: v, outcomes: o, weights: weighted ? w : undefined, unit: pairs.unit };
  return binsOf(sorted, (j) => binOfSorted[j] as number, numBins, lower, upper);
}
