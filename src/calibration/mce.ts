import type { Labels, Scores } from '../input/types.js';
import type { NamedCalibrationOptions } from './ece.js';
import { runMetric } from '../engine/run.js';
import { calibrationDefinition } from './calibrationError.js';

const DEFINITION = calibrationDefinition('mce');

/**
 * Maximum calibration error: the largest gap between accuracy and confidence over non-empty equal-width bins.
 *
 * **Formula.** MCE = max_{m : B_m ≠ ∅} |acc(B_m) − conf(B_m)|.
 *
 * **Conventions.**
 * - Same pairs and bins as {@link ece}: top label, b = min(⌊B·conf⌋, B − 1) in float64, B = 15.
 * - Empty bins are skipped. A single sample alone in a bin can set the MCE: it is very sensitive to where p = 1 and
 *   edge values go (see the presets).
 * - Fixed: `gce` with binning 'equal-width', norm 'max', topLabel true, classConditional false.
 *
 * **References.**
 * - Naeini, Cooper & Hauskrecht, AAAI 2015, doi:10.1609/aaai.v29i1.9602.
 * - Guo et al., ICML 2017, arXiv:1706.04599.
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `bins`, `preset`, `equalWidth`, `precision`, `threshold` and input options.
 * @returns the MCE, in [0, 1].
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { mce } from 'uncertainty-metrics';
 * mce([0, 1, 1], [[0.9, 0.1], [0.2, 0.8], [0.6, 0.4]], { bins: 10 }); // => 0.6
 * ```
 */
export function mce(labels: Labels, scores: Scores, options: NamedCalibrationOptions = {}): number {
  return runMetric(DEFINITION, 'mce', labels, scores, options);
}
