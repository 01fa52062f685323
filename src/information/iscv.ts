import {
  logLikelihoodMatrix,
  meanWithError,
  resolveIc,
  rowLogSumExp,
  type EstimateWithError,
  type InformationCriterionOptions,
} from './logLikelihoodMatrix.js';
import { checkOptions } from '../errors/checkOptions.js';
import { weightArray } from '../input/weights.js';

/**
 * Importance-sampling cross-validation criterion: the leave-one-out log predictive density estimated from the
 * posterior samples by importance sampling (the harmonic-mean identity).
 *
 * **Formula.** t_i = LSE_j(−ℓ_ij) = ln Σ_j 1/p(y_i | x_i, θ_j); ISCV = −(1/N)·Σ_i (t_i − ln M)
 * = (1/N)·Σ_i −ln((1/M)·Σ_j 1/p(y_i | x_i, θ_j)) (higher is better).
 *
 * **Conventions.**
 * - Layout [N instances, M members]; natural log; log-likelihoods finite and ≤ 0.
 * - Standard error √(s²/N) of the per-instance terms (sample variance; `null` with one instance); the
 *   `'uncertainty-metrics'` preset reproduces its √(σ²/M).
 * - Plain (unsmoothed) importance weights: high variance when some p(y_i | θ_j) are tiny (see PSIS for a remedy).
 *
 * **References.**
 * - Gelfand, Dey & Chang, "Model determination using predictive distributions with implementation via
 *   sampling-based methods", Bayesian Statistics 4, 1992.
 * - Vehtari, Gelman & Gabry, Statistics and Computing 2017, doi:10.1007/s11222-016-9696-4.
 *
 * @param logLikelihood [N, M] log-likelihoods (nested, or flat with `numMembers`).
 * @param options `sem`, `preset`, `numMembers`.
 * @returns `{ value, sem }`.
 * @throws {UMError} `UM_SHAPE`, `UM_EMPTY`, `UM_NOT_FINITE`, `UM_PROB_RANGE`, `UM_OPTION`.
 * @example
 * ```js
 * import { iscv } from 'uncertainty-metrics';
 * const logp = [[-0.1, -0.3, -0.2], [-1.2, -0.9, -1.5], [-0.05, -0.02, -0.4], [-2.0, -1.0, -3.0]];
 * iscv(logp, { preset: 'uncertainty-metrics' }).value; // ≈ -0.9785440263
 * ```
 */
export function iscv(
  logLikelihood: ReadonlyArray<ArrayLike<number>> | Float32Array | Float64Array,
  options: InformationCriterionOptions = {},
): EstimateWithError {
  checkOptions('iscv', options, ['numMembers', 'varianceDdof', 'sem', 'preset', 'weights']);
  const fn = 'iscv';
  const { sem } = resolveIc(fn, options);
  const { data, n, m } = logLikelihoodMatrix(fn, logLikelihood, options);
  const terms = new Float64Array(n);
  const logM = Math.log(m);
  for (let i = 0; i < n; i++) terms[i] = -(rowLogSumExp(data, i, m, -1) - logM);
  return meanWithError(terms, m, sem, weightArray(fn, options.weights, n));
}
