import { addToBinSums, BinExactSums, binsOfSums, emptyBinSums, type BinSums } from './binSums.js';
import { scratchSums } from '../math/denseSums.js';
import { ExactSum } from '../math/exactSum.js';
import { PairSum } from '../math/pairSum.js';
import { fail } from '../errors/fail.js';
import { binRange, midpointEdges } from './cuts.js';
import { maxAbs, rescaleExponent, timesPow2 } from '../math/pow2.js';
import type { Bin, BinAssignment } from './types.js';

function checkVector(fn: string, argument: string, v: ArrayLike<number>, n: number, nonNegative: boolean): void {
  if (v === null || typeof v !== 'object' || typeof v.length !== 'number')
    fail('UM_SHAPE', fn, argument, 'be an array of numbers', { value: v });
  if (v.length !== n) fail('UM_SHAPE', fn, argument, `have one entry per sample (${n})`, { value: v.length });
  for (let i = 0; i < n; i++) {
    const x: unknown = v[i];
    if (typeof x !== 'number' || !Number.isFinite(x))
      fail('UM_NOT_FINITE', fn, argument, 'be a finite number', { index: [i], value: x });
    if (nonNegative && x < 0) fail('UM_OPTION', fn, argument, 'be ≥ 0', { index: [i], value: x });
  }
}

/** Validates the inputs of the public {@link binStatistics}. */
function checkInputs(
  assignment: BinAssignment,
  scores: ArrayLike<number>,
  outcomes: ArrayLike<number>,
  weights?: ArrayLike<number>,
): void {
  const fn = 'binStatistics';
  if (assignment === null || typeof assignment !== 'object' || !(assignment.index instanceof Int32Array)) {
    fail('UM_SHAPE', fn, 'assignment', 'be a BinAssignment from assignBins', { value: assignment });
  }
  const { numBins, lower, upper, index } = assignment;
  if (!Number.isInteger(numBins) || numBins < 1 || lower?.length !== numBins || upper?.length !== numBins) {
    fail('UM_SHAPE', fn, 'assignment', 'have lower and upper edges for each of its numBins bins', { value: numBins });
  }
  // the edges are copied into every bin: finite, lower ≤ upper, read index by index (a hole or NaN was passed on)
  for (const [name, edges] of [
    ['lower', lower as unknown],
    ['upper', upper as unknown],
  ] as const) {
    if (!Array.isArray(edges) && !(edges instanceof Float64Array) && !(edges instanceof Float32Array))
      fail('UM_SHAPE', fn, `assignment.${name}`, 'be an array of bin edges', { value: edges });
  }
  for (let b = 0; b < numBins; b++) {
    const lo = lower[b];
    const hi = upper[b];
    if (typeof lo !== 'number' || !Number.isFinite(lo))
      fail('UM_NOT_FINITE', fn, 'assignment.lower', 'be finite numbers', { index: [b], value: lo });
    if (typeof hi !== 'number' || !Number.isFinite(hi) || hi < lo)
      fail('UM_NOT_FINITE', fn, 'assignment.upper', 'be finite numbers ≥ the lower edges', { index: [b], value: hi });
  }
  for (let i = 0; i < index.length; i++) {
    const b = index[i] as number;
    if (b < 0 || b >= numBins)
      fail('UM_SHAPE', fn, 'assignment.index', `be in [0, ${numBins})`, { index: [i], value: b });
  }
  const n = index.length;
  checkVector(fn, 'scores', scores, n, false);
  checkVector(fn, 'outcomes', outcomes, n, false);
  if (weights !== undefined) checkVector(fn, 'weights', weights, n, true);
}

/**
 * Per-bin statistics of (score, outcome) pairs: count, weight, mean score, mean outcome and their gap — the plain
 * objects that every calibration error is computed from and every reliability diagram draws.
 *
 * **Formula.** For bin b with samples S_b and weights w_i (1 by default): weight_b = Σ_{i∈S_b} w_i,
 * fraction_b = weight_b / Σ_i w_i, meanScore_b = Σ w_i s_i / weight_b, meanOutcome_b = Σ w_i o_i / weight_b,
 * gap_b = meanOutcome_b − meanScore_b.
 *
 * **Conventions.**
 * - Empty bins are kept (their interval is informative) with `null` means and gap; they carry no weight.
 * - Every per-bin sum is exactly rounded (a BigInt multiple of 2^−1074 underneath), so the bins do not depend on the
 *   order of the samples.
 *
 * **References.**
 * - DeGroot & Fienberg, "The Comparison and Evaluation of Forecasters", The Statistician 1983, doi:10.2307/2987588
 *   (reliability diagrams).
 *
 * @param assignment bins from {@link assignBins}.
 * @param scores score of each sample (same order as `assignment.index`).
 * @param outcomes outcome of each sample in [0, 1] (1 = correct for confidence, 1 = error for uncertainty).
 * @param weights optional non-negative sample weights.
 * @returns one {@link Bin} per bin, lowest scores first.
 * @throws {UMError} `UM_SHAPE` for an invalid assignment or mismatched lengths, `UM_NOT_FINITE` for NaN or infinite
 *   values (and a bin gap beyond float64), `UM_OPTION` for a negative weight or weights summing beyond float64. Any
 *   finite values work: extreme magnitudes are summed scaled by a power of two and scaled back.
 * @example
 * ```js
 * import { assignBins, binStatistics } from 'uncertainty-metrics';
 * const rule = { index: 'floor', edges: 'exact', closed: 'left', one: 'last-bin' };
 * const a = assignBins([0.2, 0.9, 0.7], { scheme: 'equal-width', bins: 2, rule, precision: 'float64' });
 * binStatistics(a, [0.2, 0.9, 0.7], [0, 1, 0])[1].meanOutcome; // => 0.5
 * ```
 */
export function binStatistics(
  assignment: BinAssignment,
  scores: ArrayLike<number>,
  outcomes: ArrayLike<number>,
  weights?: ArrayLike<number>,
): Bin[] {
  checkInputs(assignment, scores, outcomes, weights);
  // extreme magnitudes (any finite score, outcome or weight is allowed here): the sums are taken on values scaled by
  // exact powers of two, so w·s neither overflows nor underflows, and the means and weights are scaled back
  const ew = weights === undefined ? 0 : rescaleExponent(maxAbs(weights));
  const es = rescaleExponent(maxAbs(scores));
  const eo = rescaleExponent(maxAbs(outcomes));
  if (ew === 0 && es === 0 && eo === 0) return binStatisticsUnchecked(assignment, scores, outcomes, weights);
  if (weights !== undefined && ew > 0) {
    let total = 0;
    for (let i = 0; i < weights.length; i++) total += weights[i] as number;
    if (total === Infinity)
      fail(
        'UM_OPTION',
        'binStatistics',
        'weights',
        'have a finite sum (at most 1.8e308): each bin reports its weight',
        { value: 'a sum above 1.8e308' },
      );
  }
  const scaled = (v: ArrayLike<number>, e: number) => (e === 0 ? v : Float64Array.from(v, (x) => timesPow2(x, -e)));
  const bins = binStatisticsUnchecked(
    assignment,
    scaled(scores, es),
    scaled(outcomes, eo),
    weights === undefined ? undefined : scaled(weights, ew),
  );
  return bins.map((b) => {
    const meanScore = b.meanScore === null ? null : timesPow2(b.meanScore, es);
    const meanOutcome = b.meanOutcome === null ? null : timesPow2(b.meanOutcome, eo);
    const gap = meanScore === null || meanOutcome === null ? null : meanOutcome - meanScore;
    if (gap !== null && !Number.isFinite(gap)) {
      fail(
        'UM_NOT_FINITE',
        'binStatistics',
        'outcomes',
        'differ from the scores by at most 1.8e308 in each bin (the gap of this bin exceeds float64)',
        { index: [b.index], value: meanOutcome },
      );
    }
    return { ...b, weight: timesPow2(b.weight, ew), meanScore, meanOutcome, gap };
  });
}

/** {@link binStatistics} without input validation, for internal callers whose inputs are valid by construction. */
export function binStatisticsUnchecked(
  assignment: BinAssignment,
  scores: ArrayLike<number>,
  outcomes: ArrayLike<number>,
  weights?: ArrayLike<number>,
): Bin[] {
  // exact per-bin sums: the same bins whatever the order of the entries or how they were batched
  const sums = emptyBinSums(assignment.numBins);
  addToBinSums(sums, assignment.index, scores, outcomes, weights);
  return binsOfSums(assignment.lower, assignment.upper, sums);
}

/**
 * Adds entries [from, to) to one bin's exact sums (`count` aside): Σw and Σw·o in doubles while every addition is
 * exact (whole weights: the TwoSum error stays 0), through the dense bank otherwise; Σw·s as a pair of doubles while the
 * pair holds it exactly (`PairSum`), else through the bank.
 * The same exact sums as `addToBinSums` (internal).
 */
export function addRun(
  sums: BinSums,
  b: number,
  scores: ArrayLike<number>,
  outcomes: ArrayLike<number>,
  weights: ArrayLike<number> | undefined,
  from: number,
  to: number,
): void {
  const dense = scratchSums();
  // Σs or Σw·s first as a pair of doubles (a run of sorted entries spans few scales); the bank when the pair cannot
  const pair = RUN_PAIR;
  pair.reset();
  if (weights === undefined) {
    let ones = 0;
    for (let j = from; j < to; j++) {
      pair.add(scores[j] as number);
      const o = outcomes[j] as number;
      if (o === 1) ones++;
      else if (o !== 0) dense.add(2, o);
    }
    sums.weight.at(b).addInteger(to - from);
    if (pair.ok) pair.moveTo(sums.score.at(b));
    else {
      for (let j = from; j < to; j++) dense.add(1, scores[j] as number);
      dense.foldInto(1, sums.score.at(b));
    }
    dense.foldInto(2, sums.outcome.at(b));
    if (ones > 0) sums.outcome.at(b).addInteger(ones);
    return;
  }
  let sw = 0;
  let so = 0;
  let exact = true;
  for (let j = from; j < to; j++) {
    const w = weights[j] as number;
    const o = outcomes[j] as number;
    pair.add(w * (scores[j] as number));
    // two sums kept in doubles while no addition rounds (TwoSum: the error term of each is 0)
    const t = sw + w;
    const bb = t - sw;
    if (sw - (t - bb) + (w - bb) !== 0) exact = false;
    sw = t;
    if (o === 1) {
      const u = so + w;
      const cc = u - so;
      if (so - (u - cc) + (w - cc) !== 0) exact = false;
      so = u;
    } else if (o !== 0) exact = false;
  }
  if (pair.ok) pair.moveTo(sums.score.at(b));
  else {
    for (let j = from; j < to; j++) dense.add(1, (weights[j] as number) * (scores[j] as number));
    dense.foldInto(1, sums.score.at(b));
  }
  if (exact && Number.isFinite(sw)) {
    sums.weight.at(b).add(sw);
    sums.outcome.at(b).add(so);
    return;
  }
  for (let j = from; j < to; j++) {
    const w = weights[j] as number;
    dense.add(0, w);
    const o = outcomes[j] as number;
    if (o === 1) dense.add(2, w);
    else if (o !== 0) dense.add(2, w * o);
  }
  dense.foldInto(0, sums.weight.at(b));
  dense.foldInto(2, sums.outcome.at(b));
}

/** The pair {@link addRun} tries first (reset per run). */
const RUN_PAIR = new PairSum();

/** Three scratch sums for {@link runStatistics} (each read and cleared per bin). */
const RUN_SUMS = {
  count: new Float64Array(1),
  weight: new BinExactSums(1),
  score: new BinExactSums(1),
  outcome: new BinExactSums(1),
};

/**
 * {@link binStatisticsUnchecked} of sorted entries cut into runs at `cuts` (ascending positions), described by `edges`
 * (by default as `binsFromCuts(…, 'midpoints')` does): every run's sums are the same exact sums, added run by run,
 * read through scratch sums, the total weight the exact sum of the bins' (internal).
 */
export function runStatistics(
  scores: Float64Array,
  outcomes: Float64Array | Uint8Array,
  weights: Float64Array | undefined,
  cuts: readonly number[],
  edges = midpointEdges(cuts, scores.length, (r) => scores[r] as number),
): Bin[] {
  const n = scores.length;
  const numBins = cuts.length + 1;
  const { lower, upper } = edges;
  const count = new Float64Array(numBins);
  const weight = new Float64Array(numBins);
  const score = new Float64Array(numBins);
  const outcome = new Float64Array(numBins);
  const total = new ExactSum();
  const sums: BinSums = RUN_SUMS;
  for (let b = 0; b < numBins; b++) {
    const [from, to] = binRange(cuts, n, b);
    count[b] = to - from;
    addRun(sums, 0, scores, outcomes, weights, from, to);
    const w = sums.weight.at(0);
    weight[b] = w.value();
    total.addSum(w);
    score[b] = sums.score.at(0).value();
    outcome[b] = sums.outcome.at(0).value();
    w.clear();
    sums.score.at(0).clear();
    sums.outcome.at(0).clear();
  }
  return binsFromSums(lower, upper, count, weight, score, outcome, total.value());
}

/**
 * Bins from their per-bin sums (count, Σw, Σw·s, Σw·o) and the total weight — the one place a bin's means and gap are
 * computed, shared by {@link binStatistics} and the mergeable states (internal). `occupied`: only the bins with a
 * gap (count and weight > 0), for the binned errors, which skip the others — a Bin object per empty bin was most of
 * the time of ECE with many bins (0.5 s of CPU for 2^20 bins on a few rows, mostly the garbage collector's).
 */
export function binsFromSums(
  lower: ArrayLike<number>,
  upper: ArrayLike<number>,
  count: ArrayLike<number>,
  weight: ArrayLike<number>,
  sumScore: ArrayLike<number>,
  sumOutcome: ArrayLike<number>,
  total: number,
  occupied = false,
): Bin[] {
  const bins: Bin[] = [];
  for (let b = 0; b < count.length; b++) {
    const wb = weight[b] as number;
    const empty = (count[b] as number) === 0 || wb === 0;
    if (empty && occupied) continue;
    const meanScore = empty ? null : (sumScore[b] as number) / wb;
    const meanOutcome = empty ? null : (sumOutcome[b] as number) / wb;
    bins.push({
      index: b,
      lower: lower[b] as number,
      upper: upper[b] as number,
      count: count[b] as number,
      weight: wb,
      fraction: total > 0 ? wb / total : 0,
      meanScore,
      meanOutcome,
      gap: meanScore === null || meanOutcome === null ? null : meanOutcome - meanScore,
    });
  }
  return bins;
}
