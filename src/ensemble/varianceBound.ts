import { ensembleMatrix } from '../input/ensembleMatrix.js';
import { labelArray } from '../input/labelArray.js';
import type { EnsembleOptions, EnsembleScores, Labels } from '../input/types.js';
import { ENSEMBLE_KEYS, WEIGHT_KEYS, checkOptions } from '../errors/checkOptions.js';
import type { WeightOptions } from '../input/weights.js';
import { rowWeights } from './pairs.js';

/**
 * Empirical variance bound of an ensemble (Masegosa's tighter PAC-Bayes bound), as uncertainty_metrics'
 * `variance_bound`.
 *
 * **Formula.** V = ½·(1/(S·N))·Σ_s Σ_i ((p_s(y_i | x_i) − p̄(y_i | x_i)) / max_s p_s(y_i | x_i))², where p̄ is the
 * members' mean probability of the true label.
 *
 * **Conventions.**
 * - Uses only the probability each member gives the true label.
 * - A row where every member gives the label probability 0 contributes 0 (0/0 taken as 0).
 *
 * **References.**
 * - Masegosa, "Learning under Model Misspecification: Applications to Variational and Ensemble Methods",
 *   NeurIPS 2020, arXiv:1912.08335, Theorem 4.
 * - google/uncertainty-metrics `variance_bound`.
 *
 * @param labels N integer labels.
 * @param members [S, N, C] scores (see {@link toEnsemble}).
 * @param options ensemble input options.
 * @returns the bound, ≥ 0.
 * @throws {UMError} on invalid input.
 * @example
 * ```js
 * import { varianceBound } from 'uncertainty-metrics';
 * // the uncertainty_metrics test case with its rows normalised to sum to 1 (4 members, 2 examples)
 * const probs = [[[0.5, 0.4, 0.1], [0.1, 0.1, 0.8]], [[0.3, 0.3, 0.4], [0.1, 0, 0.9]], [[0.8, 0.1, 0.1], [0, 0.6, 0.4]], [[0.5, 0.4, 0.1], [0.1, 0.2, 0.7]]];
 * varianceBound([0, 2], probs); // ≈ 0.0232536410
 * ```
 */
export function varianceBound(
  labels: Labels,
  members: EnsembleScores,
  options: EnsembleOptions & WeightOptions = {},
): number {
  checkOptions('varianceBound', options, ENSEMBLE_KEYS, WEIGHT_KEYS);
  const fn = 'varianceBound';
  const e = ensembleMatrix(fn, members, options);
  const y = labelArray(fn, labels, e.n, e.numClasses);
  const { data, numMembers: s, n, numClasses: c } = e;
  const { w, total } = rowWeights(fn, options.weights, n);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const wi = w === undefined ? 1 : (w[i] as number);
    if (wi === 0) continue;
    let mean = 0;
    let max = 0;
    for (let m = 0; m < s; m++) {
      const v = data[(m * n + i) * c + (y[i] as number)] as number;
      mean += v;
      max = Math.max(max, v);
    }
    mean /= s;
    if (max === 0) continue;
    for (let m = 0; m < s; m++) {
      const v = data[(m * n + i) * c + (y[i] as number)] as number;
      sum += wi * ((v - mean) / max) ** 2;
    }
  }
  return (0.5 * sum) / (s * total);
}
