import { ensembleMatrix } from '../input/ensembleMatrix.js';
import type { EnsembleMatrix, EnsembleOptions, EnsembleScores } from '../input/types.js';
import { pairDisagreement } from './pairSums.js';
import { rowWeights } from './pairs.js';
import type { WeightOptions } from '../input/weights.js';
import { ENSEMBLE_KEYS, WEIGHT_KEYS, checkOptions } from '../errors/checkOptions.js';

/** Disagreement of validated members (internal kernel). */
export function disagreementOf(fn: string, e: EnsembleMatrix, w?: Float64Array, total = e.n): number {
  return pairDisagreement(fn, e, w, total);
}

/**
 * Disagreement of an ensemble: how often two members predict different classes, averaged over member pairs.
 *
 * **Formula.** D = (2/(S(S − 1)))·Σ_{a<b} (1/N)·Σ_i 1[argmax p_a(x_i) ≠ argmax p_b(x_i)].
 *
 * **Conventions.**
 * - Argmax ties → lowest class index. Needs S ≥ 2. Labels are not needed.
 *
 * **References.**
 * - Fort, Hu & Lakshminarayanan, "Deep Ensembles: A Loss Landscape Perspective", arXiv:1912.02757.
 * - google/uncertainty-metrics `disagreement` and `average_pairwise_diversity`.
 *
 * @param members [S, N, C] scores (see {@link toEnsemble}).
 * @param options ensemble input options.
 * @returns the mean pairwise disagreement rate in [0, 1].
 * @throws {UMError} on invalid input, or `UM_SHAPE` with fewer than 2 members.
 * @example
 * ```js
 * import { disagreement } from 'uncertainty-metrics';
 * disagreement([[[0, 1]], [[0, 1]], [[1, 0]]]); // ≈ 0.6666666667
 * ```
 */
export function disagreement(members: EnsembleScores, options: EnsembleOptions & WeightOptions = {}): number {
  checkOptions('disagreement', options, ENSEMBLE_KEYS, WEIGHT_KEYS);
  const e = ensembleMatrix('disagreement', members, options);
  const { w, total } = rowWeights('disagreement', options.weights, e.n);
  return disagreementOf('disagreement', e, w, total);
}
