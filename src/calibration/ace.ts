import type { Labels, Scores } from '../input/types.js';
import type { NamedCalibrationOptions } from './ece.js';
import { runMetric } from '../engine/run.js';
import { calibrationDefinition } from './calibrationError.js';

const DEFINITION = calibrationDefinition('ace');

/**
 * Adaptive calibration error: the class-wise calibration error over equal-mass bins of each class's probabilities.
 *
 * **Formula.** ACE = (1/C)·Σ_k Σ_m (|B_mk|/N)·|acc(B_mk) − conf(B_mk)|, B_mk equal-mass bins of column k.
 *
 * **Conventions.**
 * - All classes, class-conditional, equal-mass bins built per class (`equalMass: 'quantile'` by default; ties kept
 *   together, which can give fewer bins); B = 15.
 * - Every entry kept by default; see {@link tace} for the thresholded variant.
 * - Not netcal's "ACE" (the unweighted average over non-empty bins, Neumann et al.), which is another quantity.
 * - Fixed: `gce` with binning 'equal-mass', norm 'l1', topLabel false, classConditional true.
 *
 * **References.**
 * - Nixon et al., "Measuring Calibration in Deep Learning", CVPR Workshops 2019, arXiv:1904.01685.
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `bins`, `preset`, `equalMass`, `precision`, `threshold` and input options.
 * @returns the ACE, in [0, 1].
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { ace } from 'uncertainty-metrics';
 * // one bin per class column: |mean label − mean probability| = |1/3 − 17/30| = 7/30 for both classes
 * ace([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], { bins: 1 }); // ≈ 0.2333333333
 * ```
 */
export function ace(labels: Labels, scores: Scores, options: NamedCalibrationOptions = {}): number {
  return runMetric(DEFINITION, 'ace', labels, scores, options);
}
