import type { BinningOptions } from '../options/binning.js';
import { binaryPairs, resolvePositiveBinning } from './binaryPairs.js';
import { sliceBins } from './options.js';
import {
  resolveInterval,
  samplesPerTrueWeight,
  table,
  unscaled,
  type IntervalOptions,
  type ReliabilityTable,
} from './reliability.js';
import type { WeightOptions } from '../input/weights.js';
import { BINNING_KEYS, WEIGHT_KEYS, checkOptions } from '../errors/checkOptions.js';

/**
 * Reliability table of probabilities of a binary event against its 0/1 outcomes (scikit-learn's
 * `calibration_curve`, with every bin kept).
 *
 * **Formula.** Per bin B_m of p: mean p̄(B_m), observed frequency ō(B_m), gap = ō − p̄, fraction |B_m|/N.
 *
 * **Conventions.**
 * - Same binning core and options as {@link binaryCalibrationError}; its `calibrationError` equals that function's
 *   l1 value for the same options.
 * - Empty bins are kept with `null` means (scikit-learn drops them, losing their positions; filter
 *   `bins.filter((b) => b.count > 0)` to get its arrays, `preset: 'sklearn'` for its edges).
 *
 * **References.**
 * - Niculescu-Mizil & Caruana, "Predicting Good Probabilities with Supervised Learning", ICML 2005,
 *   doi:10.1145/1102351.1102430.
 *
 * @param outcomes N outcomes, each 0 or 1.
 * @param probs N probabilities of outcome 1, in [0, 1].
 * @param options binning options.
 * @returns a reliability table with `measure: 'probability'`.
 * @throws {UMError} as {@link binaryCalibrationError}.
 * @example
 * ```js
 * import { binaryReliability } from 'uncertainty-metrics';
 * const t = binaryReliability([0, 0, 0, 1, 1, 1], [0, 0.1, 0.2, 0.8, 0.9, 1], { bins: 2, preset: 'sklearn' });
 * t.bins.map((b) => b.meanOutcome); // => [0, 1]
 * t.bins.map((b) => b.meanScore); // ≈ [0.1, 0.9]
 * ```
 */
export function binaryReliability(
  outcomes: ArrayLike<number>,
  probs: ArrayLike<number>,
  options: BinningOptions & WeightOptions & IntervalOptions = {},
): ReliabilityTable {
  checkOptions('binaryReliability', options, BINNING_KEYS, WEIGHT_KEYS, ['interval', 'level']);
  const fn = 'binaryReliability';
  const { spec, config, precision } = resolvePositiveBinning(fn, options, probs);
  const interval = resolveInterval(fn, options);
  const { o, p, w, scale } = binaryPairs(fn, outcomes, probs, precision === 'float32', options.weights, {
    finiteTotal: 'the table reports the weight of each bin',
  });
  return table(
    'probability',
    p.length,
    2,
    unscaled(sliceBins(fn, p, o, spec, w), scale),
    config,
    interval,
    samplesPerTrueWeight(w, scale),
  );
}
