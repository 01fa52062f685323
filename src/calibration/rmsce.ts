import type { Labels, Scores } from '../input/types.js';
import type { NamedCalibrationOptions } from './ece.js';
import { runMetric } from '../engine/run.js';
import { calibrationDefinition } from './calibrationError.js';

const DEFINITION = calibrationDefinition('rmsce');

/**
 * Root-mean-square calibration error over equal-mass bins of the confidence (uncertainty_metrics' `rmsce`).
 *
 * **Formula.** RMSCE = √(Σ_m (|B_m|/N)·(acc(B_m) − conf(B_m))²), bins holding ≈ N/B samples each.
 *
 * **Conventions.**
 * - Top label, every row kept; equal-mass bins (`equalMass: 'quantile'` by default: cuts at round(k·N/B) moved off
 *   blocks of tied confidences, so ties can give fewer bins).
 * - Named as in uncertainty_metrics, where RMSCE is adaptive (equal-mass) + L2; torchmetrics' `norm='l2'` uses
 *   equal-width bins instead (use `gce` with `norm: 'l2'` for that).
 * - Fixed: `gce` with binning 'equal-mass', norm 'l2', topLabel true, classConditional false.
 *
 * **References.**
 * - Nguyen & O'Connor, "Posterior Calibration and Exploratory Analysis for Natural Language Processing Models",
 *   EMNLP 2015, arXiv:1508.05154.
 * - Nixon et al., CVPR Workshops 2019, arXiv:1904.01685.
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `bins`, `preset`, `equalMass`, `precision`, `threshold` and input options.
 * @returns the RMSCE, in [0, 1].
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { rmsce } from 'uncertainty-metrics';
 * // bins {0.6 ✓, 0.7 ✗}: gap 0.5 − 0.65 = −0.15; {0.8 ✓, 0.9 ✓}: gap 1 − 0.85 = 0.15
 * rmsce([0, 1, 1, 1], [[0.6, 0.4], [0.7, 0.3], [0.2, 0.8], [0.1, 0.9]], { bins: 2 }); // => 0.15
 * ```
 */
export function rmsce(labels: Labels, scores: Scores, options: NamedCalibrationOptions = {}): number {
  return runMetric(DEFINITION, 'rmsce', labels, scores, options);
}
