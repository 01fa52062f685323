import type { Labels, Scores } from '../input/types.js';
import { type AucOptions } from './aucOptions.js';
import type { SelectiveOptions } from './types.js';
import { rankingDefinition, rankingFunction } from './rankingDefinition.js';

/** The one definition of this metric (its state and `evaluate` entry derive from it too). */
export const DEFINITION = rankingDefinition('auroc');

/**
 * Area under the ROC curve of correctness against a confidence (or uncertainty) measure: the probability that a
 * correct prediction is ranked as more confident than a wrong one.
 *
 * **Formula.** AUROC = (1 / (N₊·N₋))·Σ_{i correct} Σ_{j wrong} (1[s_i > s_j] + ½·1[s_i = s_j]), s = the
 * confidence (or −uncertainty); equivalently the trapezoidal area under the ROC curve with one point per distinct
 * value of s.
 *
 * **Conventions.**
 * - Correct = the top-label prediction (argmax, ties → lowest class index; with `decisionThreshold`, P(y = 1) > t)
 *   equals the label.
 * - Ranking: `by` (default `'max-prob'`); uncertainties (entropy, normalized entropy, `{ uncertainty }`) rank in
 *   reverse. Equal values form one ROC point (sklearn's `roc_auc_score`, torchmetrics' exact `binary_auroc`).
 * - The same for the error-detection view (errors as positives ranked by uncertainty): the ROC area is symmetric.
 * - All predictions correct, or all wrong: `UM_SINGLE_CLASS` (sklearn 1.2 raises, sklearn 1.9 returns NaN,
 *   torchmetrics and Keras return 0).
 * - `thresholds: T` (or the `'uncertainty-metrics'`/`'-tf'` presets: 200) gives Keras' approximation instead: T evenly
 *   spaced thresholds on the confidence (1 − uncertainty), trapezoid; float32 with both uncertainty-metrics presets
 *   (Keras' arithmetic), float64 otherwise.
 *
 * **References.**
 * - Hendrycks & Gimpel, "A Baseline for Detecting Misclassified and Out-of-Distribution Examples in Neural
 *   Networks", ICLR 2017, arXiv:1610.02136.
 * - Fawcett, "An introduction to ROC analysis", Pattern Recognition Letters 27 (2006), doi:10.1016/j.patrec.2005.10.010.
 * - Ding, Liu, Xiong & Shi, "Evaluation of Neural Network Uncertainty Estimation with Application to
 *   Resource-Constrained Platforms", 2020, arXiv:1903.02050, §4.1 (why AUROC alone can mislead; see {@link aurc}).
 *
 * @param labels N integer labels.
 * @param scores [N, C] scores of the declared kind (or predicted classes with `input: 'predicted'`).
 * @param options `by` (ranking measure or per-sample values), `thresholds`/`preset` (approximation),
 *   `decisionThreshold` and input options.
 * @returns the AUROC in [0, 1].
 * @throws {UMError} on invalid input; `UM_SINGLE_CLASS` when every prediction is correct or every one is wrong.
 * @example
 * ```js
 * import { auroc } from 'uncertainty-metrics';
 * // confidences 0.9 (correct), 0.8 (wrong), 0.7 (correct), 0.6 (wrong): 3 of 4 pairs ordered right
 * auroc([0, 0, 1, 0], [[0.9, 0.1], [0.2, 0.8], [0.3, 0.7], [0.4, 0.6]]); // => 0.75
 * ```
 */
export function auroc(labels: Labels, scores: Scores, options: SelectiveOptions & AucOptions = {}): number {
  return rankingFunction(DEFINITION, 'auroc', labels, scores, options);
}
