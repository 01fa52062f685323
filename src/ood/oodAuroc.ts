import { checkOptions } from '../errors/checkOptions.js';
import { rocArea } from '../selective/ranking.js';
import { OOD_KEYS, oodInput, pooledSweep, type OodInput, type OodOptions } from './oodInput.js';

/**
 * AUROC of telling in-distribution from out-of-distribution samples by the model's uncertainty: the probability
 * that an in-distribution sample looks more confident than an out-of-distribution one.
 *
 * **Formula.** AUROC = (1/(N_in·N_out))·Σ_{i∈in} Σ_{j∈out} (1[s_i > s_j] + ½·1[s_i = s_j]), s = confidence
 * (−uncertainty); one ROC point per distinct value, trapezoidal area.
 *
 * **Conventions.**
 * - Each side is either scores of the model (ranked by `by`, default `'normalized-entropy'`) or the caller's values
 *   `{ uncertainty }` / `{ confidence }` (the key states the direction; both sides the same key).
 * - Symmetric: detecting OoD samples as the positives by their uncertainty gives the same number.
 * - Ties count ½ (sklearn's `roc_auc_score` on the pooled samples).
 *
 * **References.**
 * - Hendrycks & Gimpel, ICLR 2017, arXiv:1610.02136.
 * - "Uncertainty Calibration Error: A New Metric for Multi-Class Classification", ICLR 2020 submission, §5.
 *
 * @param inDistribution [N_in, C] scores, or `{ uncertainty }` / `{ confidence }` values.
 * @param outOfDistribution [N_out, C] scores, or values of the same form.
 * @param options `by` and input options (scores only).
 * @returns the AUROC in [0, 1].
 * @throws {UMError} on invalid input; `UM_EMPTY` when a side has no samples.
 * @example
 * ```js
 * import { oodAuroc } from 'uncertainty-metrics';
 * oodAuroc({ uncertainty: [0.1, 0.2, 0.6] }, { uncertainty: [0.5, 0.9] }); // ≈ 0.8333333333
 * ```
 */
export function oodAuroc(inDistribution: OodInput, outOfDistribution: OodInput, options: OodOptions = {}): number {
  const fn = 'oodAuroc';
  checkOptions(fn, options, OOD_KEYS);
  return rocArea(fn, pooledSweep(oodInput(fn, inDistribution, outOfDistribution, options)), {
    argument: 'inDistribution',
    positives: 'in-distribution samples',
    negatives: 'out-of-distribution samples',
  });
}
