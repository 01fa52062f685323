import { scratchSums } from '../math/denseSums.js';
import { ExactSum } from '../math/exactSum.js';
import { binsFromSums, binStatisticsUnchecked } from './binStatistics.js';
import { binsOfSums, emptyBinSums } from './binSums.js';
import { addColumnToBinSums } from './columnSums.js';
import { RankSelection, rankSource, SELECT_MIN, type RankSource } from './rankSelect.js';
import type { Bin, BinAssignment } from './types.js';

/**
 * This library's equal-mass (`'quantile'`) bins of unweighted scores by selection instead of a sort (internal). The
 * cuts are round(k·N/B) ranks moved off blocks of ties (see `equalMass.ts`): the value x at such a rank r, with
 * s = #{values < x} and e = #{values ≤ x}, puts the cut at s when r − s < e − r (the bin above starts with the values
 * ≥ x) and at e otherwise (it starts with the values > x). So only the B − 1 ranks' values and blocks are needed —
 * found by radix selection ({@link RankSelection}; a sorted copy below `SELECT_MIN` scores) — and every score then
 * finds its bin by its key's bucket, compared with a cut value only in the few buckets that hold one. The bins equal the sorted construction's bit for bit: the
 * same cut positions, the same midpoints between neighbouring groups, and the extreme scores as the stable sort has
 * them (the first minimum and the last maximum in input order, which only matters for the sign of a zero).
 */

/** The cuts of one construction: per cut its value and whether the bin above starts after it (internal). */
export interface SelectedCuts {
  readonly numBins: number;
  readonly x: Float64Array;
  readonly strict: Uint8Array;
  readonly lower: Float64Array;
  readonly upper: Float64Array;
}

/** The first (`last` false) or last entry of `values` equal to zero, as stored (−0 or 0). */
function zeroAsStored(values: ArrayLike<number>, last: boolean): number {
  const n = values.length;
  for (let k = 0; k < n; k++) {
    const i = last ? n - 1 - k : k;
    if (values[i] === 0) return values[i] as number;
  }
  return 0;
}

/**
 * The ranks B quantile bins over the selection's values from rank `below` on read (round(k·N′/B) past `below`, N′ =
 * N − below: the values above a threshold are the highest N′), each marked to be gathered with the extreme ranks.
 */
export function wantQuantileRanks(sel: RankSource, bins: number, below = 0): number[] {
  const n = sel.n - below;
  const ranks: number[] = [];
  for (let k = 1; k < bins; k++) {
    // round(k·N/B), half up, in exact integer arithmetic (as the sorted construction)
    const rows = Math.floor((2 * k * n + bins) / (2 * bins));
    if (rows > 0 && rows < n && rows !== ranks[ranks.length - 1]) ranks.push(rows);
  }
  for (const r of ranks) sel.want(below + r);
  sel.want(below);
  sel.want(below + n - 1);
  return ranks;
}

/**
 * The cuts of B quantile bins over the values from rank `below` on, from the ranks {@link wantQuantileRanks} marked
 * (after the selection gathered them). `values` is where zeros are read as stored: the values the bins cover.
 */
export function quantileCutsOf(
  sel: RankSource,
  ranks: readonly number[],
  below: number,
  values: ArrayLike<number>,
): SelectedCuts {
  const n = sel.n - below;
  const x: number[] = [];
  const strict: number[] = [];
  const lowerSide: number[] = [];
  const upperSide: number[] = [];
  let last = -1;
  for (const r of ranks) {
    const b = sel.block(below + r);
    const less = b.less - below;
    const lessEq = b.lessEq - below;
    // snapCut: to the nearer end of the block of ties, the upper one when equally near
    const c = r - less < lessEq - r ? less : lessEq;
    if (c <= 0 || c >= n || c === last) continue;
    last = c;
    x.push(b.value);
    if (c === less) {
      strict.push(0);
      lowerSide.push(sel.valueAt(below + c - 1));
      upperSide.push(b.value);
    } else {
      strict.push(1);
      lowerSide.push(b.value);
      upperSide.push(sel.valueAt(below + c));
    }
  }
  const numBins = x.length + 1;
  const lower = new Float64Array(numBins);
  const upper = new Float64Array(numBins);
  const min = sel.valueAt(below);
  const max = sel.valueAt(below + n - 1);
  lower[0] = min === 0 ? zeroAsStored(values, false) : min;
  upper[numBins - 1] = max === 0 ? zeroAsStored(values, true) : max;
  for (let b = 1; b < numBins; b++) {
    const mid = ((lowerSide[b - 1] as number) + (upperSide[b - 1] as number)) / 2;
    lower[b] = mid;
    upper[b - 1] = mid;
  }
  return { numBins, x: Float64Array.from(x), strict: Uint8Array.from(strict), lower, upper };
}

/** Finds the cuts of B quantile bins over the selection's values, gathering an `extra` column with the cut buckets. */
function quantileCuts(sel: RankSource, bins: number, extra?: ArrayLike<number>): SelectedCuts {
  const ranks = wantQuantileRanks(sel, bins);
  sel.gather(extra);
  return quantileCutsOf(sel, ranks, 0, sel.values);
}

/** The bin of value v among cuts [from, to) of one bucket: the first cut it does not reach (binary search). */
export function binInBucket(cuts: SelectedCuts, v: number, from: number, to: number): number {
  const { x, strict } = cuts;
  let lo = from;
  let hi = to;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const passes = strict[mid] === 1 ? v > (x[mid] as number) : v >= (x[mid] as number);
    if (passes) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The end of the run of cuts in bucket h starting at cut j (`bucket`: each cut's bucket). */
export function cutsInBucket(bucket: Int32Array, j: number, h: number): number {
  let end = j;
  while (end < bucket.length && bucket[end] === h) end++;
  return end;
}

/** The bin of every entry from its bucket's: `~(first cut)` left for the entries of buckets that hold cuts. */
function indexPass(keys: Int32Array, n: number, table: Int32Array, low: number, index: Int32Array): void {
  for (let i = 0; i < n; i++) index[i] = table[((keys[i] as number) >> 16) + 0x8000 - low] as number;
}

/**
 * Equal-mass bins of unweighted scores by selection, as a {@link BinAssignment} (bin of every score); `index`: room
 * for the N bin indices (default a fresh array, which the assignment then owns).
 */
export function quantileAssignment(
  scores: ArrayLike<number>,
  bins: number,
  index = new Int32Array(scores.length),
): BinAssignment {
  const n = scores.length;
  const src = rankSource(scores);
  try {
    const cuts = quantileCuts(src, bins);
    const m = cuts.x.length;
    if (!(src instanceof RankSelection)) {
      for (let i = 0; i < n; i++) index[i] = binInBucket(cuts, scores[i] as number, 0, m);
    } else {
      const { low, high, keys } = src;
      const bucket = Int32Array.from(cuts.x, (v) => src.bucketOf(v));
      // bin of every bucket: the cuts below it; ~(first cut) for a bucket that holds cuts, whose run of cuts ends at
      // end[first cut] (found once per bucket: scanned per entry, a bucket holding most of N cuts — B near N over
      // crowded scores — cost N² steps)
      const table = new Int32Array(high - low + 1);
      const end = new Int32Array(m);
      let j = 0;
      for (let h = low; h <= high; h++) {
        while (j < m && (bucket[j] as number) < h) j++;
        const holds = j < m && bucket[j] === h;
        table[h - low] = holds ? ~j : j;
        if (holds) end[j] = cutsInBucket(bucket, j, h);
      }
      indexPass(keys, n, table, low, index);
      for (let i = 0; i < n; i++) {
        const t = index[i] as number;
        if (t < 0) index[i] = binInBucket(cuts, scores[i] as number, ~t, end[~t] as number);
      }
    }
    return { numBins: cuts.numBins, lower: cuts.lower, upper: cuts.upper, index };
  } finally {
    src.release();
  }
}

/**
 * Bin indices of {@link quantileStatistics}' columns that are not float32 values (softmax of logits: every class
 * column of `um metrics --input logits`, twice), up to this many entries: a fresh array per column was garbage the
 * allocator kept mapped. Larger columns' indices are their own, freed with them.
 */
const SCRATCH_MAX = 2 ** 18;
let indexScratch = new Int32Array(0);

/** Per-bucket Σ score and Σ outcome of {@link quantileStatistics} (module scratch, zero between calls; 1 MiB on first use). */
let bucketSums: { score: Float64Array; ones: Float64Array } | undefined;

/** The per-bucket sums scratch (zero between calls; whoever fills a range clears it before returning) (internal). */
export function bucketScratch(): { score: Float64Array; ones: Float64Array } {
  bucketSums ??= { score: new Float64Array(1 << 16), ones: new Float64Array(1 << 16) };
  return bucketSums;
}

/**
 * The bins (count, weight, mean score and outcome) of unweighted (score, outcome) entries in B equal-mass
 * `'quantile'` bins, without a sort and without a bin index per entry: float32 scores are summed per bucket in the
 * selection's own pass (exact: a bucket's scores share sign and exponent), and only the buckets holding a cut are
 * split entry by entry. Any other input (scores that are not float32 values, outcomes other than 0/1) bins by
 * {@link quantileAssignment}. The exact sums make the bins the same bits as `binStatistics` over the sorted
 * construction. `positives` (optional): the positions of the outcomes equal to 1, every other outcome being 0.
 */
export function quantileStatistics(
  scores: ArrayLike<number>,
  outcomes: ArrayLike<number>,
  bins: number,
  positives?: Int32Array,
): Bin[] {
  const { score: SCORE, ones: ONES } = bucketScratch();
  const sel =
    scores.length < SELECT_MIN ? null : RankSelection.withSums(scores, outcomes, SCORE, ONES, undefined, positives);
  if (sel === null) {
    // the bin indices are read once, by the sums below: scratch for a column of up to SCRATCH_MAX entries
    const n = scores.length;
    if (n <= SCRATCH_MAX && indexScratch.length < n)
      indexScratch = new Int32Array(Math.min(SCRATCH_MAX, Math.max(n, 2 * indexScratch.length)));
    const a = quantileAssignment(scores, bins, n <= SCRATCH_MAX ? indexScratch.subarray(0, n) : undefined);
    if (positives === undefined || !(scores instanceof Float64Array) || !(outcomes instanceof Float64Array))
      return binStatisticsUnchecked(a, scores, outcomes);
    // outcomes 0 or 1 (class columns): float64 scores summed by the column kernel where it runs (the same exact sums)
    const sums = emptyBinSums(a.numBins);
    addColumnToBinSums(sums, a.index, scores, outcomes, undefined, positives);
    return binsOfSums(a.lower, a.upper, sums);
  }
  const { low, high } = sel;
  try {
    return quantileBinsOf(sel, quantileCuts(sel, bins, outcomes), null, -1, SCORE, ONES);
  } finally {
    SCORE.fill(0, low, high + 1);
    ONES.fill(0, low, high + 1);
    sel.release();
  }
}

/** The first index of ascending `a` holding a value ≥ x. */
export function firstAtLeast(a: Int32Array, x: number): number {
  let lo = 0;
  let hi = a.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((a[mid] as number) < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The quantile bins of the entries above `t` from the selection's bucket sums: buckets ascending visit the bins in
 * order; whole buckets add their sums, buckets holding cuts (and t's bucket) are split entry by entry. Sums of
 * buckets (or parts of a bucket) that share a bin and a float32 sign and exponent (bucket >> 7) add exactly in a
 * float64 (multiples of one ulp, below 2^53 of them), so the dense exact sums see one number per exponent and bin, and
 * each bin is folded when the next begins. `t` null: every entry (`tBucket` −1). Shared by {@link quantileStatistics}
 * and the class-column sweep (internal).
 */
export function quantileBinsOf(
  sel: RankSelection,
  cuts: SelectedCuts,
  t: number | null,
  tBucket: number,
  SCORE: Float64Array,
  ONES: Float64Array,
): Bin[] {
  const bucket = Int32Array.from(cuts.x, (v) => sel.bucketOf(v));
  const numBins = cuts.numBins;
  // unweighted: each bin's weight is its count and its outcome sum its ones; only Σ score needs the exact bank
  const score = new Float64Array(numBins);
  const acc = SCORE_SUM;
  const count = new Float64Array(numBins);
  const ones = new Float64Array(numBins);
  const dense = scratchSums();
  const starts = sel.starts;
  // sums of buckets (or parts) sharing a bin and a float32 sign and exponent (bucket >> 7) add exactly in a float64
  let bin = 0;
  let group = -1;
  let run = 0;
  const emit = (b: number, g: number, part: number, entries: number, one: number): void => {
    if (g !== group || b !== bin) {
      dense.add(1, run);
      run = 0;
      group = g;
      if (b !== bin) {
        dense.foldInto(1, acc);
        score[bin] = acc.value();
        acc.clear();
        bin = b;
      }
    }
    run += part;
    count[b] = (count[b] as number) + entries;
    ones[b] = (ones[b] as number) + one;
  };
  const m = bucket.length;
  let j = 0;
  const occupied = sel.occupied;
  for (let i = firstAtLeast(occupied, tBucket); i < occupied.length; i++) {
    const h = occupied[i] as number;
    while (j < m && (bucket[j] as number) < h) j++;
    const holds = j < m && bucket[j] === h;
    if (!holds && h !== tBucket) {
      // a whole bucket (the common case, inline): its bin is the cuts below it
      const g = h >> 7;
      if (g !== group || j !== bin) {
        dense.add(1, run);
        run = 0;
        group = g;
        if (j !== bin) {
          dense.foldInto(1, acc);
          score[bin] = acc.value();
          acc.clear();
          bin = j;
        }
      }
      run += SCORE[h] as number;
      count[j] = (count[j] as number) + ((starts[h + 1] as number) - (starts[h] as number));
      ones[j] = (ones[j] as number) + (ONES[h] as number);
      continue;
    }
    const end = holds ? cutsInBucket(bucket, j, h) : j;
    const parts = end - j + 1;
    const partScore = new Float64Array(parts);
    const partCount = new Float64Array(parts);
    const partOnes = new Float64Array(parts);
    const e = sel.entriesOf(h);
    const o = e.extra as Float64Array;
    for (let p = 0; p < e.values.length; p++) {
      const v = e.values[p] as number;
      if (t !== null && !(v > t)) continue;
      const l = binInBucket(cuts, v, j, end) - j;
      partScore[l] = (partScore[l] as number) + v;
      partCount[l] = (partCount[l] as number) + 1;
      partOnes[l] = (partOnes[l] as number) + (o[p] as number);
    }
    for (let l = 0; l < parts; l++)
      if ((partCount[l] as number) > 0)
        emit(j + l, h >> 7, partScore[l] as number, partCount[l] as number, partOnes[l] as number);
    j = end;
  }
  dense.add(1, run);
  dense.foldInto(1, acc);
  score[bin] = acc.value();
  acc.clear();
  let total = 0;
  for (let b = 0; b < numBins; b++) total += count[b] as number;
  return binsFromSums(cuts.lower, cuts.upper, count, count, score, ones, total);
}

/** The scratch sum each quantile bin's Σ score is read through. */
const SCORE_SUM = new ExactSum();
