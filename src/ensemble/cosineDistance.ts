import { ensembleMatrix } from '../input/ensembleMatrix.js';
import type { EnsembleMatrix, EnsembleOptions, EnsembleScores } from '../input/types.js';
import { pairCosine } from './pairSums.js';
import { rowWeights } from './pairs.js';
import { ENSEMBLE_KEYS, WEIGHT_KEYS, checkOptions } from '../errors/checkOptions.js';
import type { WeightOptions } from '../input/weights.js';

/** Mean cosine similarity of two members' rows (internal kernel). */
export function cosineSimilarityBetween(
  e: EnsembleMatrix,
  a: number,
  b: number,
  w?: Float64Array,
  total = e.n,
): number {
  const { data, n, numClasses: c } = e;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const oa = (a * n + i) * c;
    const ob = (b * n + i) * c;
    let dot = 0;
    let na = 0;
    let nb = 0;
    for (let k = 0; k < c; k++) {
      const x = data[oa + k] as number;
      const y = data[ob + k] as number;
      dot += x * y;
      na += x * x;
      nb += y * y;
    }
    const wi = w === undefined ? 1 : (w[i] as number);
    if (wi > 0) sum += wi * (dot / (Math.sqrt(na) * Math.sqrt(nb)));
  }
  return sum / total;
}

/**
 * Cosine distance between ensemble members' predicted distributions, averaged over examples and member pairs.
 *
 * **Formula.** (2/(S(S − 1)))·Σ_{a<b} (1/N)·Σ_i [1 − ⟨p_a, p_b⟩/(‖p_a‖·‖p_b‖)].
 *
 * **Conventions.**
 * - A distance: 0 for identical members. uncertainty_metrics' `cosine_distance` returns the mean cosine
 *   *similarity* (1 − this); `averagePairwiseDiversity` reports that similarity under its name.
 * - Probability vectors are never all zero, so the norms are positive. Needs S ≥ 2.
 *
 * **References.**
 * - Fort, Hu & Lakshminarayanan, arXiv:1912.02757.
 *
 * @param members [S, N, C] scores (see {@link toEnsemble}).
 * @param options ensemble input options.
 * @returns the mean pairwise cosine distance in [0, 1].
 * @throws {UMError} on invalid input, or `UM_SHAPE` with fewer than 2 members.
 * @example
 * ```js
 * import { cosineDistance } from 'uncertainty-metrics';
 * cosineDistance([[[1, 0]], [[0, 1]]]); // => 1
 * cosineDistance([[[0.6, 0.4]], [[0.6, 0.4]]]); // ≈ 0
 * ```
 */
export function cosineDistance(members: EnsembleScores, options: EnsembleOptions & WeightOptions = {}): number {
  checkOptions('cosineDistance', options, ENSEMBLE_KEYS, WEIGHT_KEYS);
  const fn = 'cosineDistance';
  const e = ensembleMatrix(fn, members, options);
  const { w, total } = rowWeights(fn, options.weights, e.n);
  return 1 - pairCosine(fn, e, w, total);
}
