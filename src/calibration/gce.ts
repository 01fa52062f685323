import type { Labels, Scores } from '../input/types.js';
import type { CalibrationErrorOptions } from './options.js';
import { runMetric } from '../engine/run.js';
import { calibrationDefinition } from './calibrationError.js';

const DEFINITION = calibrationDefinition('gce');

/**
 * General calibration error: the whole parameter space of binned calibration errors (uncertainty_metrics'
 * `GeneralCalibrationError`), of which ECE, MCE, RMSCE, SCE, ACE and TACE are named members.
 *
 * **Formula.** For one slice S of (score s_i, outcome o_i) pairs binned into B_1 … B_M:
 * CE(S) = Σ_m (|B_m|/|S|)·|ō(B_m) − s̄(B_m)| (l1), √(Σ_m (|B_m|/|S|)·(ō − s̄)²) (l2), max_m |ō − s̄| (max).
 * Not class-conditional: one slice of all kept pairs. Class-conditional: CE = (1/C)·Σ_k CE(S_k) (l1; l2 averages the
 * squares before the root; max takes the maximum over classes).
 *
 * **Conventions.**
 * - Pairs: `topLabel: true` (default) → (max_k p_ik, 1[argmax_k p_ik = y_i]); `topLabel: false` → every (p_ik,
 *   1[y_i = k]). Class-conditional slices are the rows predicted as k (top label) or column k (all classes).
 * - Argmax ties go to the lowest class index.
 * - `threshold`: keep entries with p > threshold (strict); `null` (our default) keeps all, the
 *   `'uncertainty-metrics'` preset uses 0, which drops exact zeros.
 * - Equal-width bins (default): b = min(⌊B·p⌋, B − 1) in float64, so p = 1 is in the last bin and p = 0 in the
 *   first; B = 15. Equal-mass and Ding bins are built per slice. Empty bins contribute nothing.
 * - In the class-conditional mean every class counts, also classes whose slice is empty (they contribute 0), as in
 *   uncertainty_metrics; if every slice is empty the call throws.
 * - Accumulated in float64; `precision: 'float32'` rounds the probabilities to float32 first (float32 presets).
 *
 * **References.**
 * - Nixon, Dusenberry, Zhang, Jerfel & Tran, "Measuring Calibration in Deep Learning", CVPR Workshops 2019,
 *   arXiv:1904.01685.
 * - Kumar, Liang & Ma, "Verified Uncertainty Calibration", NeurIPS 2019, arXiv:1909.10155 (marginal/class-wise CE).
 * - google/uncertainty-metrics, `uncertainty_metrics.numpy.gce` (the parameter space reproduced here).
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind (see `toProbabilities`).
 * @param options `norm`, `topLabel`, `classConditional`, `threshold`, binning (`bins`, `binning`, `equalWidth`,
 *   `equalMass`, `ding`, `preset`, `precision`) and input options.
 * @returns the calibration error, in [0, 1].
 * @throws {UMError} on invalid input or options (class by class, equal-width or edge bins × classes above 2^20);
 *   `UM_EMPTY` when the threshold leaves nothing to bin.
 * @example
 * ```js
 * import { gce } from 'uncertainty-metrics';
 * const labels = [0, 1, 1];
 * const probs = [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]];
 * gce(labels, probs, { bins: 10 }); // => 0.3
 * gce(labels, probs, { bins: 10, topLabel: false, classConditional: true }); // => 0.3
 * ```
 */
export function gce(labels: Labels, scores: Scores, options: CalibrationErrorOptions = {}): number {
  return runMetric(DEFINITION, 'gce', labels, scores, options);
}
