import { isList } from '../input/isList.js';
import { fail } from '../errors/fail.js';
import { finiteOddsRatio, openProbability } from './oddsRatio.js';

/**
 * Expected odds ratio (EOR) of a prediction histogram: the weighted mean odds ratio of each bin's probability
 * against the overall rate — a measure of resolution that, unlike the Brier score, does not shrink as the base
 * rate approaches 0 or 1.
 *
 * **Formula.** EOR(C) = Σ_i w_i·OR(p_i, p̄), p̄ = Σ_i w_i p_i, weights normalised to sum 1.
 *
 * **Conventions.**
 * - Weights default to equal; they are normalised. Every p_i must lie strictly inside (0, 1) (a bin of 0 or 1 has
 *   infinite odds: the Top-1 binning calibrator regularises its bins for this reason).
 * - EOR ≥ 1, = 1 only for a constant prediction.
 *
 * **References.**
 * - Oberman, Finlay, Iannantuono & Salvador, Definition 2 and Example 1 (coins: EOR 8), Example 3.
 *
 * @param probabilities p_i of the bins, each in (0, 1).
 * @param weights w_i ≥ 0 (default equal), not all 0.
 * @returns the EOR (≥ 1).
 * @throws {UMError} `UM_PROB_RANGE` for a probability outside (0, 1); `UM_SHAPE`/`UM_OPTION` for bad weights;
 *   `UM_EMPTY` for no bins; `UM_NOT_FINITE` when an odds ratio exceeds float64.
 * @example
 * ```js
 * import { expectedOddsRatio } from 'uncertainty-metrics';
 * // Oberman et al., Example 1: two fair coins and coins with P(H) = 15/16 and 1/16
 * expectedOddsRatio([1 / 2, 1 / 2, 15 / 16, 1 / 16]); // ≈ 8
 * ```
 */
export function expectedOddsRatio(probabilities: ArrayLike<number>, weights?: ArrayLike<number>): number {
  const fn = 'expectedOddsRatio';
  if (!isList(probabilities)) {
    fail('UM_SHAPE', fn, 'probabilities', 'be an array of numbers', { value: probabilities });
  }
  const n = probabilities.length;
  if (n === 0) fail('UM_EMPTY', fn, 'probabilities', 'hold at least one bin', { value: 0 });
  const p = Array.from({ length: n }, (_, i) => openProbability(fn, 'probabilities', probabilities[i], [i]));
  let w: number[];
  if (weights === undefined) w = p.map(() => 1 / n);
  else {
    if (!isList(weights) || weights.length !== n)
      fail('UM_SHAPE', fn, 'weights', `have one weight per probability (${n})`, { value: weights });
    const raw = Array.from({ length: n }, (_, i) => {
      const v = weights[i];
      if (typeof v !== 'number' || !Number.isFinite(v) || v < 0)
        fail('UM_OPTION', fn, 'weights', 'be finite numbers ≥ 0', { index: [i], value: v });
      return v;
    });
    const total = raw.reduce((a, b) => a + b, 0);
    if (total === 0) fail('UM_OPTION', fn, 'weights', 'not all be 0', { value: 0 });
    w = raw.map((v) => v / total);
  }
  let mean = 0;
  for (let i = 0; i < n; i++) mean += (w[i] as number) * (p[i] as number);
  let eor = 0;
  for (let i = 0; i < n; i++) eor += (w[i] as number) * finiteOddsRatio(fn, 'probabilities', p[i] as number, mean, [i]);
  return eor;
}
