import type { Labels, Scores } from '../input/types.js';
import type { CalibrationErrorOptions } from './options.js';
import { runMetric } from '../engine/run.js';
import { calibrationDefinition } from './calibrationError.js';

const DEFINITION = calibrationDefinition('ece');

/** Options of the named calibration errors: everything but the structure they fix. */
export type NamedCalibrationOptions = Omit<
  CalibrationErrorOptions,
  'norm' | 'topLabel' | 'classConditional' | 'binning'
>;

/**
 * Expected calibration error: the share-weighted mean gap between accuracy and confidence over equal-width bins.
 *
 * **Formula.** ECE = Σ_m (|B_m|/N)·|acc(B_m) − conf(B_m)|, acc = mean of 1[ŷ_i = y_i], conf = mean of max_k p_ik,
 * with bins of the confidence.
 *
 * **Conventions.**
 * - Top label only (argmax ties → lowest index); every row kept.
 * - Bins: b = min(⌊B·conf⌋, B − 1) in float64 — p = 1 in the last bin, p = 0 in the first; B = 15 by default.
 *   Presets reproduce other libraries' edges (`preset: 'uncertainty-metrics'`, `'torchmetrics'`, …).
 * - Empty bins contribute nothing. Accumulated in float64.
 * - Fixed: `gce` with binning 'equal-width', norm 'l1', topLabel true, classConditional false.
 *
 * **References.**
 * - Naeini, Cooper & Hauskrecht, AAAI 2015, doi:10.1609/aaai.v29i1.9602.
 * - Guo, Pleiss, Sun & Weinberger, "On Calibration of Modern Neural Networks", ICML 2017, arXiv:1706.04599, eq. 3.
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind (see `toProbabilities`).
 * @param options `bins`, `preset`, `equalWidth`, `precision`, `threshold` and input options.
 * @returns the ECE, in [0, 1].
 * @throws {UMError} on invalid input or options (also when a fixed option is given another value).
 * @example
 * ```js
 * import { ece } from 'uncertainty-metrics';
 * // confidences 0.9 (right), 0.8 (right), 0.6 (wrong): each alone in its bin
 * ece([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], { bins: 10 }); // => 0.3
 * ```
 */
export function ece(labels: Labels, scores: Scores, options: NamedCalibrationOptions = {}): number {
  return runMetric(DEFINITION, 'ece', labels, scores, options);
}
