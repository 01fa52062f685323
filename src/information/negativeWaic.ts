import { fail } from '../errors/fail.js';
import {
  logLikelihoodMatrix,
  meanWithError,
  resolveIc,
  rowLogSumExp,
  scaledSquares,
  type EstimateWithError,
  type InformationCriterionOptions,
} from './logLikelihoodMatrix.js';
import { checkOptions } from '../errors/checkOptions.js';
import { weightArray } from '../input/weights.js';
import { stableMean } from '../math/pow2.js';

/**
 * Negative widely applicable information criterion: an estimate of the expected log predictive density on new data
 * from the log-likelihoods of M posterior samples (or ensemble members) on N training instances.
 *
 * **Formula.** lpd_i = ln((1/M)·Σ_j p(y_i | x_i, θ_j)) = LSE_j(ℓ_ij) − ln M. WAIC1: a_i = lpd_i − V_j(ℓ_ij) (V the
 * variance over members); WAIC2: a_i = 2·(1/M)·Σ_j ℓ_ij − lpd_i. nWAIC = (1/N)·Σ_i a_i (higher is better).
 *
 * **Conventions.**
 * - Layout [N instances, M members] (as uncertainty_metrics; the ensemble functions use [S, N, C]).
 * - V uses the sample variance (ddof 1), as google/uncertainty-metrics' README and Vehtari et al.; `varianceDdof: 0` or the
 *   `'uncertainty-metrics'` preset use uncertainty_metrics' population variance.
 * - Standard error √(s²/N) over instances (sample variance); `null` with one instance. The preset reproduces
 *   uncertainty_metrics' √(σ²/M), which divides by the number of members.
 * - Natural log; log-likelihoods must be finite and ≤ 0.
 *
 * **References.**
 * - Watanabe, "Asymptotic Equivalence of Bayes Cross Validation and Widely Applicable Information Criterion",
 *   JMLR 2010, jmlr.org/papers/v11/watanabe10a.html.
 * - Vehtari, Gelman & Gabry, "Practical Bayesian model evaluation using leave-one-out cross-validation and WAIC",
 *   Statistics and Computing 2017, doi:10.1007/s11222-016-9696-4.
 *
 * @param logLikelihood [N, M] log-likelihoods ln p(y_i | x_i, θ_j) (nested, or flat with `numMembers`).
 * @param options `type` ('waic1' default, or 'waic2'), `varianceDdof`, `sem`, `preset`, `numMembers`.
 * @returns `{ value, sem }`.
 * @throws {UMError} `UM_SHAPE`, `UM_EMPTY`, `UM_NOT_FINITE` (also a row whose WAIC term exceeds float64: log-likelihoods
 *   of −1e308 and −1 have a variance of 1e615; means and spreads of values down to −1.8e308 are otherwise taken
 *   scaled, without overflow), `UM_PROB_RANGE` (positive log-likelihood), `UM_OPTION`.
 * @example
 * ```js
 * import { negativeWaic } from 'uncertainty-metrics';
 * const logp = [[-0.1, -0.3, -0.2], [-1.2, -0.9, -1.5], [-0.05, -0.02, -0.4], [-2.0, -1.0, -3.0]];
 * negativeWaic(logp, { preset: 'uncertainty-metrics' }).value; // ≈ -0.9908538697
 * negativeWaic(logp, { type: 'waic2', preset: 'uncertainty-metrics' }).sem; // ≈ 0.5071531406
 * ```
 */
export function negativeWaic(
  logLikelihood: ReadonlyArray<ArrayLike<number>> | Float32Array | Float64Array,
  options: InformationCriterionOptions & { type?: 'waic1' | 'waic2' } = {},
): EstimateWithError {
  checkOptions('negativeWaic', options, ['numMembers', 'varianceDdof', 'sem', 'preset', 'type', 'weights']);
  const fn = 'negativeWaic';
  const type = options.type ?? 'waic1';
  if (type !== 'waic1' && type !== 'waic2')
    fail('UM_OPTION', fn, 'options.type', `be 'waic1' or 'waic2'`, { value: type });
  const { varianceDdof, sem } = resolveIc(fn, options);
  const { data, n, m } = logLikelihoodMatrix(fn, logLikelihood, options);
  if (type === 'waic1' && m - varianceDdof < 1)
    fail('UM_SHAPE', fn, 'logLikelihood', `have at least ${varianceDdof + 1} members for the variance`, { value: m });
  const terms = new Float64Array(n);
  const logM = Math.log(m);
  for (let i = 0; i < n; i++) {
    const row = data.subarray(i * m, (i + 1) * m);
    const lpd = rowLogSumExp(data, i, m, 1) - logM;
    // log-likelihoods down to −1.8e308: the mean and the spread are taken on values scaled by a power of two
    const mean = stableMean(row);
    if (type === 'waic2') {
      const t = 2 * mean - lpd;
      terms[i] = Number.isFinite(t) ? t : mean + (mean - lpd); // without overflowing 2·mean where that matters
    } else {
      terms[i] = lpd - scaledSquares(row, mean) / (m - varianceDdof);
    }
    if (!Number.isFinite(terms[i] as number)) {
      fail(
        'UM_NOT_FINITE',
        fn,
        'logLikelihood',
        'give a WAIC term within float64 (its penalty, the variance of the row, exceeds 1.8e308)',
        { index: [i], value: minOf(row) },
      );
    }
  }
  return meanWithError(terms, m, sem, weightArray(fn, options.weights, n));
}

/** The most negative entry of a row, named in errors. */
function minOf(row: Float64Array): number {
  let v = 0;
  for (const x of row) v = Math.min(v, x);
  return v;
}
