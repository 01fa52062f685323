import type { Labels, Scores } from '../input/types.js';
import type { NamedCalibrationOptions } from './ece.js';
import { runMetric } from '../engine/run.js';
import { calibrationDefinition } from './calibrationError.js';

const DEFINITION = calibrationDefinition('tace');

/**
 * Thresholded adaptive calibration error: the ACE over the class probabilities above a threshold only.
 *
 * **Formula.** TACE = (1/C)·Σ_k Σ_m (|B_mk|/N_k)·|acc(B_mk) − conf(B_mk)|, where column k keeps only p_ik > ε,
 * N_k is the number kept, and B_mk are equal-mass bins of the kept values.
 *
 * **Conventions.**
 * - ε = `threshold` = 0.01 by default (strict: p = ε is dropped); weights are relative to the entries kept per class.
 * - A class with no entry above ε contributes 0 but still counts in the 1/C average (as uncertainty_metrics).
 * - Equal-mass bins built per class on the kept values (`equalMass: 'quantile'` by default), B = 15.
 * - Fixed: `gce` with binning 'equal-mass', norm 'l1', topLabel false, classConditional true.
 *
 * **References.**
 * - Nixon et al., "Measuring Calibration in Deep Learning", CVPR Workshops 2019, arXiv:1904.01685 (ε = 0.01 or 0.001).
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `threshold` (default 0.01), `bins`, `preset`, `equalMass`, `precision` and input options.
 * @returns the TACE, in [0, 1].
 * @throws {UMError} on invalid input or options; `UM_EMPTY` when no probability exceeds the threshold.
 * @example
 * ```js
 * import { tace } from 'uncertainty-metrics';
 * // class 0 keeps 0.995 (label 0) and 0.4 (label 1): |0.5 − 0.6975| = 0.1975;
 * // class 1 drops 0.005 and keeps 0.6 (label 1): |1 − 0.6| = 0.4; mean over the two classes:
 * tace([0, 1], [[0.995, 0.005], [0.4, 0.6]], { bins: 1 }); // => 0.29875
 * ```
 */
export function tace(labels: Labels, scores: Scores, options: NamedCalibrationOptions = {}): number {
  return runMetric(DEFINITION, 'tace', labels, scores, options);
}
