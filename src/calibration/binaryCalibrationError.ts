import type { WeightOptions } from '../input/weights.js';
import { binnedErrorRaw, finishNorm, type Norm } from '../binning/binnedError.js';
import type { BinningOptions } from '../options/binning.js';
import { fail } from '../errors/fail.js';
import { binaryPairs, resolvePositiveBinning } from './binaryPairs.js';
import { sliceBins } from './options.js';
import { BINNING_KEYS, checkOptions, WEIGHT_KEYS } from '../errors/checkOptions.js';

/** Options of {@link binaryCalibrationError}. */
export interface BinaryCalibrationOptions extends BinningOptions, WeightOptions {
  /** `'l1'` (default), `'l2'` or `'max'`. */
  norm?: Norm;
}

/**
 * Calibration error of probabilities of a binary event against its 0/1 outcomes: the positive-class ECE, or the
 * ECE of any (confidence, correct) pairs.
 *
 * **Formula.** CE = Σ_m (|B_m|/N)·|ō(B_m) − p̄(B_m)| (l1; l2: root of the weighted mean square; max: largest gap),
 * bins of p.
 *
 * **Conventions.**
 * - The probability p_i is of the event o_i = 1 — e.g. P(y = 1) with outcomes = labels (positive-class calibration,
 *   as scikit-learn, torchmetrics' `binary_calibration_error`, netcal, relplot and verified_calibration score a
 *   vector), or the confidence with outcomes = correctness (the top-label ECE in pair form).
 * - This differs from `ece(labels, p, { binary: true })`, which scores the top label of [1 − p, p], as
 *   uncertainty_metrics does.
 * - Bins and presets as for {@link ece}: b = min(⌊B·p⌋, B − 1) in float64, B = 15 by default — in the arithmetic of
 *   the peer's positive-class function (the preset's `positiveClass`): `preset: 'torchmetrics'` keeps the input's
 *   precision as its `binary_calibration_error` does (float64 for numbers and a Float64Array, float32 for a
 *   Float32Array), where its multiclass ECE works in float32.
 *
 * **References.**
 * - Naeini, Cooper & Hauskrecht, AAAI 2015, doi:10.1609/aaai.v29i1.9602.
 * - Kumar, Liang & Ma, NeurIPS 2019, arXiv:1909.10155.
 *
 * @param outcomes N outcomes, each 0 or 1.
 * @param probs N probabilities of outcome 1, in [0, 1].
 * @param options `norm` and binning options.
 * @returns the calibration error, in [0, 1].
 * @throws {UMError} `UM_SHAPE`, `UM_EMPTY`, `UM_NOT_FINITE`, `UM_PROB_RANGE`, `UM_LABEL` (outcome not 0/1), `UM_OPTION`.
 * @example
 * ```js
 * import { binaryCalibrationError } from 'uncertainty-metrics';
 * // bins [0, 0.5): p̄ 0.2 vs 0 observed; [0.5, 1]: p̄ 0.75 vs 1 observed
 * binaryCalibrationError([0, 1, 1, 0], [0.1, 0.8, 0.7, 0.3], { bins: 2 }); // => 0.225
 * // torchmetrics' binary function keeps float64 input in float64: 0.19 and 0.2 fall in different bins
 * binaryCalibrationError([0, 1], [0.2, 0.19], { preset: 'torchmetrics' }); // => 0.505
 * ```
 */
export function binaryCalibrationError(
  outcomes: ArrayLike<number>,
  probs: ArrayLike<number>,
  options: BinaryCalibrationOptions = {},
): number {
  checkOptions('binaryCalibrationError', options, BINNING_KEYS, WEIGHT_KEYS, ['norm']);
  const fn = 'binaryCalibrationError';
  const norm = options.norm ?? 'l1';
  if (norm !== 'l1' && norm !== 'l2' && norm !== 'max')
    fail('UM_OPTION', fn, 'options.norm', `be one of 'l1', 'l2', 'max'`, { value: norm });
  const { spec, precision } = resolvePositiveBinning(fn, options, probs);
  const { o, p, w } = binaryPairs(fn, outcomes, probs, precision === 'float32', options.weights);
  return finishNorm(binnedErrorRaw(sliceBins(fn, p, o, spec, w), norm), norm);
}
