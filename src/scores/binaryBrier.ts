import { binaryPairs } from '../calibration/binaryPairs.js';
import { fail } from '../errors/fail.js';
import { WEIGHT_KEYS, checkOptions } from '../errors/checkOptions.js';
import type { WeightOptions } from '../input/weights.js';
import { mean } from './brier.js';

/**
 * Brier score of probabilities of a binary event against its 0/1 outcomes: the positive-class Brier score, or the
 * top-label Brier score of (confidence, correct) pairs.
 *
 * **Formula.** BS = (1/N)·Σ_i (p_i − o_i)², range [0, 1]; `scale: 'double'` gives 2·BS, which equals the
 * two-class {@link brier}.
 *
 * **Conventions.**
 * - p_i is the probability of o_i = 1: P(y = 1) with outcomes = labels (scikit-learn's `brier_score_loss`), or the
 *   confidence with outcomes = correctness (verified_calibration's top-label MSE).
 * - Accumulated in float64.
 *
 * **References.**
 * - Brier, Monthly Weather Review 1950, doi:10.1175/1520-0493(1950)078<0001:VOFEIT>2.0.CO;2.
 *
 * @param outcomes N outcomes, each 0 or 1.
 * @param probs N probabilities of outcome 1, in [0, 1].
 * @param options `scale`: `'single'` (default) or `'double'`.
 * @returns the mean squared error.
 * @throws {UMError} `UM_SHAPE`, `UM_EMPTY`, `UM_NOT_FINITE`, `UM_PROB_RANGE`, `UM_LABEL`, `UM_OPTION`.
 * @example
 * ```js
 * import { binaryBrier } from 'uncertainty-metrics';
 * binaryBrier([1, 0], [0.8, 0.4]); // => 0.1
 * ```
 */
export function binaryBrier(
  outcomes: ArrayLike<number>,
  probs: ArrayLike<number>,
  options: { scale?: 'single' | 'double' } & WeightOptions = {},
): number {
  checkOptions('binaryBrier', options, WEIGHT_KEYS, ['scale']);
  const fn = 'binaryBrier';
  const scale = options.scale ?? 'single';
  if (scale !== 'single' && scale !== 'double')
    fail('UM_OPTION', fn, 'options.scale', `be 'single' or 'double'`, { value: scale });
  const { o, p, w } = binaryPairs(fn, outcomes, probs, false, options.weights);
  const sq = Float64Array.from(p, (v, i) => (v - (o[i] as number)) ** 2);
  return (scale === 'double' ? 2 : 1) * mean(sq, w);
}
