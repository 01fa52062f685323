import type { Bin, BinAssignment } from './types.js';

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
 * - Sums are accumulated in float64.
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
 * @throws {UMError} never for consistent inputs (lengths are the caller's contract).
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
  const { numBins, lower, upper, index } = assignment;
  const count = new Float64Array(numBins);
  const weight = new Float64Array(numBins);
  const sumScore = new Float64Array(numBins);
  const sumOutcome = new Float64Array(numBins);
  let total = 0;
  for (let i = 0; i < index.length; i++) {
    const b = index[i] as number;
    const w = weights === undefined ? 1 : (weights[i] as number);
    count[b] = (count[b] as number) + 1;
    weight[b] = (weight[b] as number) + w;
    sumScore[b] = (sumScore[b] as number) + w * (scores[i] as number);
    sumOutcome[b] = (sumOutcome[b] as number) + w * (outcomes[i] as number);
    total += w;
  }
  const bins: Bin[] = [];
  for (let b = 0; b < numBins; b++) {
    const wb = weight[b] as number;
    const empty = (count[b] as number) === 0 || wb === 0;
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
