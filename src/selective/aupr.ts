import type { Labels, Scores } from '../input/types.js';
import { type AucOptions } from './aucOptions.js';
import type { SelectiveOptions } from './types.js';
import { rankingDefinition, rankingFunction } from './rankingDefinition.js';

/** The one definition of this metric (its state and `evaluate` entry derive from it too). */
export const DEFINITION = rankingDefinition('aupr');

/** Options of {@link aupr}. */
export interface AuprOptions extends SelectiveOptions, AucOptions {
  /**
   * Which predictions are the positives: `'error'` (default; wrong predictions ranked by uncertainty — the
   * error-detection view of Ding et al. and Hendrycks & Gimpel's "AUPR-Out"/"AUPR-Error") or `'correct'`
   * (correct predictions ranked by confidence, "AUPR-In"/"AUPR-Success").
   */
  positive?: 'error' | 'correct';
}

/**
 * Area under the precision–recall curve (average precision) of detecting wrong predictions by their uncertainty,
 * or correct ones by their confidence.
 *
 * **Formula.** AP = Σ_t (R_t − R_{t−1})·P_t over the distinct values t of the ranking measure, from the most
 * to the least likely positive, with R_t, P_t the recall and precision of "positive if at least as extreme as t".
 *
 * **Conventions.**
 * - Correct = the top-label prediction (argmax, ties → lowest index; or P(y = 1) > `decisionThreshold`) equals the
 *   label. `positive: 'error'` (default) ranks by uncertainty (−confidence), `'correct'` by confidence.
 * - Ranking: `by` (default `'max-prob'`); equal values form one point; no interpolation between points (sklearn's
 *   `average_precision_score`, torchmetrics' exact `binary_average_precision`).
 * - No positives or no negatives: `UM_SINGLE_CLASS` (sklearn returns 1 or 0 with a warning).
 * - `thresholds: T` (or the `'uncertainty-metrics'`/`'-tf'` presets: 200) gives Keras' approximation: T evenly spaced
 *   thresholds on 1 − confidence (errors) or the confidence (correct), Davis & Goadrich interpolation; float32 with
 *   both uncertainty-metrics presets (Keras' arithmetic), float64 otherwise.
 *
 * **References.**
 * - Davis & Goadrich, "The Relationship Between Precision-Recall and ROC Curves", ICML 2006, doi:10.1145/1143844.1143874.
 * - Hendrycks & Gimpel, ICLR 2017, arXiv:1610.02136.
 * - Ding, Liu, Xiong & Shi, 2020, arXiv:1903.02050, Table 1 (misclassified samples as positives).
 *
 * @param labels N integer labels.
 * @param scores [N, C] scores of the declared kind (or predicted classes with `input: 'predicted'`).
 * @param options `positive` (default `'error'`), `by`, `thresholds`/`preset` (approximation), `decisionThreshold` and
 *   input options.
 * @returns the average precision in [0, 1].
 * @throws {UMError} on invalid input or options; `UM_SINGLE_CLASS` when every prediction is correct or every one
 *   is wrong.
 * @example
 * ```js
 * import { aupr } from 'uncertainty-metrics';
 * const labels = [0, 0, 1, 0];
 * const probs = [[0.9, 0.1], [0.2, 0.8], [0.3, 0.7], [0.4, 0.6]]; // correct, wrong, correct, wrong
 * aupr(labels, probs); // ≈ 0.8333333333
 * aupr(labels, probs, { positive: 'correct' }); // ≈ 0.8333333333
 * ```
 */
export function aupr(labels: Labels, scores: Scores, options: AuprOptions = {}): number {
  return rankingFunction(DEFINITION, 'aupr', labels, scores, options);
}
