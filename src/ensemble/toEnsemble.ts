import { ensembleMatrix } from '../input/ensembleMatrix.js';
import type { EnsembleMatrix, EnsembleOptions, EnsembleScores } from '../input/types.js';
import { ENSEMBLE_KEYS, checkOptions } from '../errors/checkOptions.js';

/**
 * Validates stacked member outputs [S, N, C] of a declared kind once; every ensemble function then accepts the
 * result without validating again.
 *
 * **Formula.** Per member as {@link toProbabilities}: probabilities as given; logits via the shifted softmax
 * (keeping ln p = z − LSE(z)); log-probabilities exponentiated.
 *
 * **Conventions.**
 * - One layout: member-major [S, N, C] — S members (ensemble members or MC-dropout passes), N examples, C classes.
 *   An array of S member matrices, or one flat typed array with `numMembers` and `numClasses`.
 * - Errors index [member, row, class].
 *
 * **References.**
 * - Lakshminarayanan, Pritzel & Blundell, "Simple and Scalable Predictive Uncertainty Estimation using Deep
 *   Ensembles", NeurIPS 2017, arXiv:1612.01474.
 * - Gal & Ghahramani, "Dropout as a Bayesian Approximation", ICML 2016, arXiv:1506.02142.
 *
 * @param members [S, N, C] scores.
 * @param options `input`, `numMembers`, `numClasses`, `sumTolerance`.
 * @returns an {@link EnsembleMatrix}.
 * @throws {UMError} `UM_SHAPE`, `UM_EMPTY`, `UM_NOT_FINITE`, `UM_PROB_RANGE`, `UM_ROW_SUM`, `UM_OPTION`.
 * @example
 * ```js
 * import { toEnsemble } from 'uncertainty-metrics';
 * const e = toEnsemble([[[0, 0]], [[0, Math.log(3)]]], { input: 'logits' });
 * [e.numMembers, e.n, e.numClasses, e.data[3]]; // ≈ [2, 1, 2, 0.75]
 * ```
 */
export function toEnsemble(members: EnsembleScores, options: EnsembleOptions = {}): EnsembleMatrix {
  checkOptions('toEnsemble', options, ENSEMBLE_KEYS);
  return ensembleMatrix('toEnsemble', members, options);
}
