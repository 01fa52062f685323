import { ensembleMatrix } from '../input/ensembleMatrix.js';
import { labelArray } from '../input/labelArray.js';
import type { EnsembleOptions, EnsembleScores, Labels } from '../input/types.js';
import { pairDoubleFault } from './pairSums.js';
import { ENSEMBLE_KEYS, WEIGHT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { weightArray, type WeightOptions } from '../input/weights.js';

/**
 * Double fault: among the examples member a gets wrong, the share member b also gets wrong, averaged over ordered
 * member pairs as Kuncheva & Whitaker's pairwise measure is in uncertainty_metrics.
 *
 * **Formula.** DF(a, b) = #{i : ŷ_a(i) ≠ y_i ∧ ŷ_b(i) ≠ y_i} / #{i : ŷ_a(i) ≠ y_i}; reported as the mean of
 * DF(a, b) and DF(b, a) over pairs a < b.
 *
 * **Conventions.**
 * - A member without errors has no "first faults": its DF(a, ·) term is skipped; if no member errs the result is 0.
 * - Argmax ties → lowest class index. Needs S ≥ 2.
 *
 * **References.**
 * - Kuncheva & Whitaker, "Measures of Diversity in Classifier Ensembles", Machine Learning 2003,
 *   doi:10.1023/A:1022859003006.
 * - google/uncertainty-metrics `double_fault`.
 *
 * @param labels N integer labels.
 * @param members [S, N, C] scores (see {@link toEnsemble}).
 * @param options ensemble input options.
 * @returns the mean double-fault rate in [0, 1].
 * @throws {UMError} on invalid input, or `UM_SHAPE` with fewer than 2 members.
 * @example
 * ```js
 * import { doubleFault } from 'uncertainty-metrics';
 * // member 0 errs on rows 0 and 1, member 1 only on row 0: DF(0, 1) = 1/2, DF(1, 0) = 1
 * doubleFault([1, 1], [[[0.9, 0.1], [0.8, 0.2]], [[0.9, 0.1], [0.1, 0.9]]]); // => 0.75
 * ```
 */
export function doubleFault(
  labels: Labels,
  members: EnsembleScores,
  options: EnsembleOptions & WeightOptions = {},
): number {
  checkOptions('doubleFault', options, ENSEMBLE_KEYS, WEIGHT_KEYS);
  const fn = 'doubleFault';
  const e = ensembleMatrix(fn, members, options);
  const y = labelArray(fn, labels, e.n, e.numClasses);
  const w = weightArray(fn, options.weights, e.n);
  return pairDoubleFault(fn, e, y, w);
}
