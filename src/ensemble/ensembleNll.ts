import { ensembleMatrix } from '../input/ensembleMatrix.js';
import { labelArray } from '../input/labelArray.js';
import type { EnsembleOptions, EnsembleScores, Labels } from '../input/types.js';
import { nllRows } from '../scores/nllPerExample.js';
import { mean } from '../scores/brier.js';
import type { WarningOptions } from '../warnings/warnings.js';
import { meanPrediction } from './mcIntegrate.js';
import { ENSEMBLE_KEYS, WEIGHT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { weightArray, type WeightOptions } from '../input/weights.js';

/**
 * Ensemble negative log-likelihood: the NLL of the averaged predictive distribution (Bayesian model averaging).
 *
 * **Formula.** (1/N)·Σ_i −ln((1/S)·Σ_s p_s(y_i | x_i)); from logits, −(LSE_s ln p_s(y_i) − ln S).
 *
 * **Conventions.**
 * - Natural log; no clipping (an exact 0 for every member gives Infinity and a `UM_W_INFINITE` warning).
 * - Never larger than {@link gibbsNll} (Jensen's inequality).
 * - `weights`: frequency weights per example (a weight-0 row is left out, even with an infinite NLL).
 *
 * **References.**
 * - google/uncertainty-metrics `ensemble_cross_entropy`.
 * - Lakshminarayanan, Pritzel & Blundell, NeurIPS 2017, arXiv:1612.01474.
 *
 * @param labels N integer labels.
 * @param members [S, N, C] scores (see {@link toEnsemble}).
 * @param options ensemble input options, `weights` and `onWarning`.
 * @returns the ensemble NLL in nats.
 * @throws {UMError} on invalid input.
 * @example
 * ```js
 * import { ensembleNll } from 'uncertainty-metrics';
 * ensembleNll([0], [[[0.9, 0.1]], [[0.5, 0.5]]]); // ≈ 0.3566749439
 * ```
 */
export function ensembleNll(
  labels: Labels,
  members: EnsembleScores,
  options: EnsembleOptions & WarningOptions & WeightOptions = {},
): number {
  checkOptions('ensembleNll', options, ENSEMBLE_KEYS, WEIGHT_KEYS, ['onWarning']);
  const fn = 'ensembleNll';
  const e = ensembleMatrix(fn, members, options);
  const y = labelArray(fn, labels, e.n, e.numClasses);
  return mean(
    nllRows(fn, meanPrediction(e), y, { clip: null, renormalize: false, precision: 'float64' }, options),
    weightArray(fn, options.weights, e.n),
  );
}
