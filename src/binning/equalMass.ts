import { samplesPerWeight } from '../input/weights.js';
import { gather } from '../math/gather.js';
import { binsFromCuts, snapCut, snapWeightedCut, weightedBlocks } from './cuts.js';
import { binStatisticsUnchecked, runStatistics } from './binStatistics.js';
import { argsortAscending, numpyLinspaceUnit, numpyQuantileSorted, roundHalfEven } from './numpy.js';
import { quantileAssignment, quantileStatistics } from './quantileSelect.js';
import { valuesAtRanks } from './rankSelect.js';
import type { Bin, BinAssignment, EqualMassMethod } from './types.js';

/**
 * The ascending scores read at a few ranks only, found by selection instead of a sort: `v[r]` for every rank asked
 * for (as `Float64Array.from(scores).sort()` has it), `undefined` elsewhere. The peers' constructions read B + 1
 * order statistics or fewer.
 */
function sortedAt(scores: ArrayLike<number>, ranks: readonly number[]): ArrayLike<number> {
  const values = valuesAtRanks(scores, ranks);
  const v: { length: number; [r: number]: number } = { length: scores.length };
  ranks.forEach((r, j) => (v[r] = values[j] as number));
  return v;
}

/**
 * Our equal-mass bins: cuts at round(k·N/B), snapped off blocks of ties, merged when they coincide. With weights the
 * same in weight units, a sample of weight w counting as w tied copies: cuts at round(k·W/B), snapped to the nearer
 * boundary between distinct scores — so integer weights give exactly the bins of the repeated samples. Weights that
 * are not whole numbers are relative (they stand for the N rows): the cut is at the weight of round(k·N/B) rows,
 * (that many rows)·Σw/N, so equal weights give the unweighted bins and a common factor changes nothing. Whole weights
 * of scale `unit` ≠ 1 (beyond 2^100 samples) are cut at k·W/B: a whole sample is below float64's resolution there.
 */
function quantileBins(
  scores: ArrayLike<number>,
  bins: number,
  weights?: ArrayLike<number>,
  ascending?: Uint32Array,
  unit = 1,
): BinAssignment {
  // unweighted cuts need B − 1 ranks only: selection (weighted cuts walk cumulative weights in sorted order)
  if (weights === undefined && ascending === undefined) return quantileAssignment(scores, bins);
  const order = ascending ?? argsortAscending(scores);
  const v = gather(scores, order);
  const cuts = quantileCutRows(v, weights === undefined ? undefined : gather(weights, order), weights, bins, unit);
  return binsFromCuts(v, order, cuts, 'midpoints');
}

/**
 * The cut positions of {@link quantileBins} over ascending `v` with its weights `w` in the same order (`weights`: the
 * same weights in the caller's order, whose sum decides whether they are relative).
 */
function quantileCutRows(
  v: ArrayLike<number>,
  w: ArrayLike<number> | undefined,
  weights: ArrayLike<number> | undefined,
  bins: number,
  unit: number,
): number[] {
  const n = v.length;
  const cuts: number[] = [];
  const blocks = w === undefined ? undefined : weightedBlocks(v, w);
  const u = weights === undefined ? 1 : samplesPerWeight(weights, unit);
  const relative = u !== unit;
  for (let k = 1; k < bins; k++) {
    // round(k·N/B), half up, in exact integer arithmetic (weight units: floor(k·W/B + 1/2))
    const rows = Math.floor((2 * k * n + bins) / (2 * bins));
    const r =
      blocks === undefined
        ? snapCut(v, rows)
        : snapWeightedCut(
            blocks,
            relative
              ? (rows * blocks.total) / n
              : unit === 1
                ? Math.floor((k * blocks.total) / bins + 0.5)
                : (k * blocks.total) / bins,
          );
    if (r > 0 && r < n && r !== cuts[cuts.length - 1]) cuts.push(r);
  }
  return cuts;
}

/**
 * The bins of entries already in the canonical sorted order in this library's equal-mass bins — the bins of
 * `binStatistics(equalMassBins(scores, B, 'quantile', weights, identity, unit), …)` without the copies, the bin of every
 * entry or a counting sort: the bins are runs of the sorted entries, summed run by run (internal).
 */
export function sortedQuantileStatistics(
  scores: Float64Array,
  outcomes: Float64Array | Uint8Array,
  weights: Float64Array | undefined,
  bins: number,
  unit: number,
): Bin[] {
  const cuts = quantileCutRows(scores, weights, weights, bins, unit);
  return runStatistics(scores, outcomes, weights, cuts);
}

/** Bins from sorted edge values with a membership function; lower/upper describe the intervals. */
function binsFromEdges(
  scores: ArrayLike<number>,
  numBins: number,
  lower: Float64Array,
  upper: Float64Array,
  member: (p: number) => number,
): BinAssignment {
  const n = scores.length;
  const index = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const b = member(scores[i] as number);
    index[i] = b < 0 ? 0 : b >= numBins ? numBins - 1 : b;
  }
  return { numBins, lower, upper, index };
}

/** Number of entries of ascending `edges` that are ≤ x (`side` = 'right') or < x (`side` = 'left'). */
function searchsorted(edges: ArrayLike<number>, x: number, side: 'left' | 'right'): number {
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const e = edges[mid] as number;
    if (side === 'right' ? e <= x : e < x) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** google/uncertainty-metrics `get_adaptive_bins` + `numpy.digitize`. */
function umAdaptiveBins(scores: ArrayLike<number>, bins: number): BinAssignment {
  const n = scores.length;
  const step = n / bins; // numpy.linspace(0, n, bins, endpoint=False)
  const at = (k: number) => Math.min(roundHalfEven(k * step), n - 1);
  const v = sortedAt(scores, [0, n - 1, ...Array.from({ length: bins - 1 }, (_, j) => at(j + 1))]);
  const upperEdges = new Float64Array(bins - 1);
  for (let k = 1; k < bins; k++) upperEdges[k - 1] = v[at(k)] as number;
  const lower = new Float64Array(bins);
  const upper = new Float64Array(bins);
  for (let b = 0; b < bins; b++) {
    lower[b] = b === 0 ? (v[0] as number) : (upperEdges[b - 1] as number);
    upper[b] = b === bins - 1 ? (v[n - 1] as number) : (upperEdges[b] as number);
  }
  return binsFromEdges(scores, bins, lower, upper, (p) => searchsorted(upperEdges, p, 'right'));
}

/** verified_calibration `get_equal_bins` + `bisect_left`. */
function verifiedEqualBins(scores: ArrayLike<number>, bins: number): BinAssignment {
  const n = scores.length;
  const parts = Math.min(bins, n);
  // numpy.array_split: the first n mod parts parts hold one more element
  const base = Math.floor(n / parts);
  const extra = n % parts;
  const ranks = [0];
  for (let i = 0, end = 0; i < parts - 1; i++) {
    end += base + (i < extra ? 1 : 0);
    ranks.push(end - 1, end);
  }
  const v = sortedAt(scores, ranks);
  const raw: number[] = [];
  let start = 0;
  for (let i = 0; i < parts - 1; i++) {
    const size = base + (i < extra ? 1 : 0);
    const end = start + size;
    raw.push(((v[end - 1] as number) + (v[end] as number)) / 2.0);
    start = end;
  }
  raw.push(1.0);
  const edges = Array.from(new Set(raw)).sort((a, b) => a - b);
  const numBins = edges.length;
  const lower = new Float64Array(numBins);
  const upper = new Float64Array(numBins);
  for (let b = 0; b < numBins; b++) {
    lower[b] = b === 0 ? Math.min(v[0] as number, edges[0] as number) : (edges[b - 1] as number);
    upper[b] = edges[b] as number;
  }
  return binsFromEdges(scores, numBins, lower, upper, (p) => searchsorted(edges, p, 'left'));
}

/** The sorted positions {@link numpyQuantileSorted} reads for each q. */
function quantileReads(n: number, q: ArrayLike<number>): number[] {
  const ranks: number[] = [];
  for (let k = 0; k < q.length; k++) {
    const vi = (n - 1) * (q[k] as number);
    if (vi >= n - 1) ranks.push(n - 1);
    else if (vi < 0) ranks.push(0);
    else ranks.push(Math.floor(vi), Math.floor(vi) + 1);
  }
  return ranks;
}

/** netcal `equal_intervals=False`: `numpy.quantile` edges forced to [0, 1], `numpy.histogramdd` membership. */
function netcalQuantileBins(scores: ArrayLike<number>, bins: number): BinAssignment {
  const q = numpyLinspaceUnit(bins);
  const v = sortedAt(scores, quantileReads(scores.length, q));
  const edges = Float64Array.from(q, (qk) => numpyQuantileSorted(v, qk));
  edges[0] = 0;
  edges[bins] = 1;
  const last = edges[bins] as number;
  return binsFromEdges(scores, bins, edges.slice(0, bins), edges.slice(1), (p) =>
    p === last ? bins - 1 : searchsorted(edges, p, 'right') - 1,
  );
}

/** scikit-learn `calibration_curve(strategy='quantile')`: `numpy.percentile` edges, right-closed. */
function sklearnQuantileBins(scores: ArrayLike<number>, bins: number): BinAssignment {
  // np.percentile(y, linspace(0, 1, B + 1) * 100) divides by 100 again
  const q = numpyLinspaceUnit(bins).map((qk) => (qk * 100) / 100);
  const v = sortedAt(scores, quantileReads(scores.length, q));
  const edges = Float64Array.from(q, (qk) => numpyQuantileSorted(v, qk));
  const inner = edges.slice(1, bins);
  return binsFromEdges(scores, bins, edges.slice(0, bins), edges.slice(1), (p) => searchsorted(inner, p, 'left'));
}

/**
 * Assigns every score to an equal-mass bin with the given construction (see {@link EqualMassMethod}). Weights are
 * supported by this library's `'quantile'` construction; the peers' constructions have none (callers reject them).
 */
export function equalMassBins(
  scores: ArrayLike<number>,
  bins: number,
  method: EqualMassMethod,
  weights?: ArrayLike<number>,
  ascending?: Uint32Array,
  unit = 1,
): BinAssignment {
  switch (method) {
    case 'quantile':
      return quantileBins(scores, bins, weights, ascending, unit);
    case 'uncertainty-metrics':
      return umAdaptiveBins(scores, bins);
    case 'verified-calibration':
      return verifiedEqualBins(scores, bins);
    case 'netcal':
      return netcalQuantileBins(scores, bins);
    case 'sklearn':
      return sklearnQuantileBins(scores, bins);
  }
}

/**
 * The bins of unweighted (score, outcome) entries in B equal-mass bins of the given construction: the same bins as
 * `binStatistics(equalMassBins(…))`, whatever the entries' order — the cuts come from order statistics found by
 * selection and every sum is exact, so the entries are never sorted; `positives`: see `quantileStatistics` (internal).
 */
export function equalMassStatistics(
  scores: ArrayLike<number>,
  outcomes: ArrayLike<number>,
  bins: number,
  method: EqualMassMethod,
  positives?: Int32Array,
): Bin[] {
  if (method === 'quantile') return quantileStatistics(scores, outcomes, bins, positives);
  return binStatisticsUnchecked(equalMassBins(scores, bins, method), scores, outcomes);
}
