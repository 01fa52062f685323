import type { Labels, Scores } from '../input/types.js';
import type { NamedCalibrationOptions } from './ece.js';
import { runMetric } from '../engine/run.js';
import { calibrationDefinition } from './calibrationError.js';

const DEFINITION = calibrationDefinition('sce');

/**
 * Static calibration error: the class-wise ECE — every class probability binned per class against its one-hot
 * label, averaged over classes.
 *
 * **Formula.** SCE = (1/C)·Σ_k Σ_m (|B_mk|/N)·|acc(B_mk) − conf(B_mk)|, where B_mk bins column k of the
 * probabilities and acc is the share of rows labelled k.
 *
 * **Conventions.**
 * - All classes, class-conditional, equal-width bins b = min(⌊B·p⌋, B − 1), B = 15.
 * - Exact zeros are kept by default (`threshold: null`); the `'uncertainty-metrics'` preset drops them
 *   (threshold 0, strict), which changes the result when probabilities are exactly 0 (CONVENTIONS.md §4.5).
 * - Fixed: `gce` with binning 'equal-width', norm 'l1', topLabel false, classConditional true.
 *
 * **References.**
 * - Nixon et al., "Measuring Calibration in Deep Learning", CVPR Workshops 2019, arXiv:1904.01685.
 * - Kumar, Liang & Ma, "Verified Uncertainty Calibration", NeurIPS 2019, arXiv:1909.10155 (marginal CE).
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `bins`, `preset`, `equalWidth`, `precision`, `threshold` and input options.
 * @returns the SCE, in [0, 1].
 * @throws {UMError} on invalid input or options (`UM_OPTION` when bins × classes exceeds 2^20: every class keeps
 *   every bin).
 * @example
 * ```js
 * import { sce } from 'uncertainty-metrics';
 * sce([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], { bins: 10 }); // => 0.3
 * ```
 */
export function sce(labels: Labels, scores: Scores, options: NamedCalibrationOptions = {}): number {
  return runMetric(DEFINITION, 'sce', labels, scores, options);
}
