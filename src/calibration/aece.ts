import type { Labels, Scores } from '../input/types.js';
import type { CalibrationErrorOptions } from './options.js';
import { runMetric } from '../engine/run.js';
import { calibrationDefinition } from './calibrationError.js';

const DEFINITION = calibrationDefinition('aece');

/** Options of {@link aece} and {@link amce}. */
export type AdaptiveCalibrationOptions = Omit<
  CalibrationErrorOptions,
  'norm' | 'topLabel' | 'classConditional' | 'binning' | 'bins' | 'equalMass' | 'equalWidth'
>;

/**
 * Adaptive-binning expected calibration error (Ding et al.): the ECE over bins sized so that each bin's accuracy is
 * estimated within its own confidence range.
 *
 * **Formula.** AECE = Σ_b (n_b/N)·|acc(b) − conf(b)|, where bins are grown over the confidences in descending order
 * until n_b ≥ ¼·(z/ε_b)², ε_b = max − min confidence of the bin.
 *
 * **Conventions.**
 * - Top label; Ding bins (see `DingOptions`): z = 1.645, a new bin only while more than 40 samples remain and the
 *   bin's minimum is more than 0.05 above the global minimum; the last bin is topped up by the authors' rule.
 * - z = 1.645 is what the authors' reference code uses; the paper's text speaks of an 80 % interval (z = 1.2816).
 * - Ties are never split between bins (the reference code may split them, which makes its result depend on row
 *   order); without ties the result equals the reference code's. With N ≤ 41 there is a single bin.
 * - Fixed: `gce` with binning 'ding', norm 'l1', topLabel true, classConditional false.
 *
 * **References.**
 * - Ding, Liu, Xiong & Shi, "Revisiting the Evaluation of Uncertainty Estimation and Its Application to Explore Model
 *   Complexity-Uncertainty Trade-Off", CVPR Workshops 2020, arXiv:1903.02050, §4.2; code: github.com/yding5/AdaptiveBinning.
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `ding` (`z`, `minRemaining`, `minGap`), `precision`, `threshold` and input options.
 * @returns the AECE, in [0, 1].
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { aece } from 'uncertainty-metrics';
 * // three rows → one bin: |2/3 − (0.9 + 0.8 + 0.6)/3| = 0.1
 * aece([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]]); // => 0.1
 * ```
 */
export function aece(labels: Labels, scores: Scores, options: AdaptiveCalibrationOptions = {}): number {
  return runMetric(DEFINITION, 'aece', labels, scores, options);
}
