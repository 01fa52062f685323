import type { Labels, Scores } from '../input/types.js';
import type { AdaptiveCalibrationOptions } from './aece.js';
import { runMetric } from '../engine/run.js';
import { calibrationDefinition } from './calibrationError.js';

const DEFINITION = calibrationDefinition('amce');

/**
 * Adaptive-binning maximum calibration error (Ding et al.): the largest accuracy–confidence gap over the adaptive
 * bins of {@link aece}.
 *
 * **Formula.** AMCE = max_b |acc(b) − conf(b)| over Ding bins of the confidence.
 *
 * **Conventions.**
 * - Same bins as {@link aece} (z = 1.645, 40 remaining samples, 0.05 gap; ties never split).
 * - Because every bin holds enough samples for its accuracy to be estimated within its own width, the AMCE is far
 *   less noisy than the equal-width MCE.
 * - Fixed: `gce` with binning 'ding', norm 'max', topLabel true, classConditional false.
 *
 * **References.**
 * - Ding, Liu, Xiong & Shi, CVPR Workshops 2020, arXiv:1903.02050; code: github.com/yding5/AdaptiveBinning.
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `ding`, `precision`, `threshold` and input options.
 * @returns the AMCE, in [0, 1].
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { amce } from 'uncertainty-metrics';
 * amce([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]]); // => 0.1
 * ```
 */
export function amce(labels: Labels, scores: Scores, options: AdaptiveCalibrationOptions = {}): number {
  return runMetric(DEFINITION, 'amce', labels, scores, options);
}
