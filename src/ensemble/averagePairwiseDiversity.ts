import { fail } from '../errors/fail.js';
import { ensembleMatrix } from '../input/ensembleMatrix.js';
import type { EnsembleOptions, EnsembleScores } from '../input/types.js';
import { disagreementOf } from './disagreement.js';
import { pairCosine, pairKl } from './pairSums.js';
import { rowWeights } from './pairs.js';
import { ENSEMBLE_KEYS, WEIGHT_KEYS, checkOptions } from '../errors/checkOptions.js';
import type { WeightOptions } from '../input/weights.js';
import { emitWarning, type WarningOptions } from '../warnings/warnings.js';

/**
 * The three pairwise diversity summaries of uncertainty_metrics' `average_pairwise_diversity`, in one call:
 * disagreement, average KL divergence and average cosine similarity.
 *
 * **Formula.** Means over member pairs a < b of: the disagreement rate; (1/N)·Σ_i KL(p_a ‖ p_b); (1/N)·Σ_i cos(p_a, p_b).
 * With `error`, the disagreement is divided by (error + 1e-7), as uncertainty_metrics does.
 *
 * **Conventions.**
 * - `cosineSimilarity` is a similarity (1 for identical members), named as uncertainty_metrics reports it.
 * - 0·ln 0 = 0 in the KL term; p_k > 0 with q_k = 0 makes `averageKl` +Infinity with a `UM_W_INFINITE` warning (as
 *   {@link pairwiseKl}). Needs S ≥ 2.
 *
 * **References.**
 * - google/uncertainty-metrics `average_pairwise_diversity`.
 * - Fort, Hu & Lakshminarayanan, arXiv:1912.02757.
 *
 * @param members [S, N, C] scores (see {@link toEnsemble}).
 * @param options `error` (an error rate to normalise the disagreement), ensemble input options and `onWarning`.
 * @returns `{ disagreement, averageKl, cosineSimilarity }`.
 * @throws {UMError} on invalid input or `error`, or `UM_SHAPE` with fewer than 2 members.
 * @example
 * ```js
 * import { averagePairwiseDiversity } from 'uncertainty-metrics';
 * averagePairwiseDiversity([[[0.6, 0.4]], [[0.6, 0.4]]]); // => { disagreement: 0, averageKl: 0, cosineSimilarity: 1 }
 * ```
 */
export function averagePairwiseDiversity(
  members: EnsembleScores,
  options: EnsembleOptions & WeightOptions & WarningOptions & { error?: number } = {},
): { disagreement: number; averageKl: number; cosineSimilarity: number } {
  checkOptions('averagePairwiseDiversity', options, ENSEMBLE_KEYS, WEIGHT_KEYS, ['error', 'onWarning']);
  const fn = 'averagePairwiseDiversity';
  if (
    options.error !== undefined &&
    (typeof options.error !== 'number' || !(options.error >= 0 && options.error <= 1))
  ) {
    fail('UM_OPTION', fn, 'options.error', 'be an error rate in [0, 1]', { value: options.error });
  }
  const e = ensembleMatrix(fn, members, options);
  const { w, total } = rowWeights(fn, options.weights, e.n);
  const d = disagreementOf(fn, e, w, total);
  const averageKl = pairKl(fn, e, 0, w, total);
  // as pairwiseKl: an infinite KL (a member gives probability 0 where an earlier one does not) is said, not silent
  if (averageKl === Infinity) {
    emitWarning(options, {
      code: 'UM_W_INFINITE',
      fn,
      message: `${fn}: a member gives probability 0 where an earlier one does not; the average KL divergence is Infinity (pairwiseKl with clip bounds it)`,
    });
  }
  return {
    disagreement: options.error === undefined ? d : d / (options.error + 1e-7),
    averageKl,
    cosineSimilarity: pairCosine(fn, e, w, total),
  };
}
