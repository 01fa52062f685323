import { ensembleMatrix } from '../input/ensembleMatrix.js';
import type { EnsembleMatrix, EnsembleOptions, EnsembleScores } from '../input/types.js';
import { meanPrediction } from './mcIntegrate.js';
import { ENSEMBLE_KEYS, checkOptions } from '../errors/checkOptions.js';

/** Per-example uncertainty decomposition, in nats. */
export interface UncertaintyDecomposition {
  /** Entropy of the mean prediction, H(p̄). */
  readonly total: Float64Array;
  /** Mean entropy of the members, (1/S)·Σ_s H(p_s) (the aleatoric part). */
  readonly expectedData: Float64Array;
  /** total − expectedData: mutual information between label and member (the epistemic part), ≥ 0. */
  readonly mutualInformation: Float64Array;
}

/** −Σ p ln p over one row, using exact log-probabilities when given; 0·ln 0 = 0. */
function rowEntropy(p: ArrayLike<number>, logp: ArrayLike<number> | undefined, o: number, c: number): number {
  let h = 0;
  for (let k = 0; k < c; k++) {
    const v = p[o + k] as number;
    if (v > 0) h -= v * (logp === undefined ? Math.log(v) : (logp[o + k] as number));
  }
  return h;
}

/** The decomposition of validated members (internal kernel). */
export function decomposeUncertainty(e: EnsembleMatrix): UncertaintyDecomposition {
  const { data, logData, numMembers: s, n, numClasses: c } = e;
  const mean = meanPrediction(e);
  const total = new Float64Array(n);
  const expectedData = new Float64Array(n);
  const mutualInformation = new Float64Array(n);
  const lp = (arr: ArrayLike<number>, logs: ArrayLike<number> | undefined, j: number) =>
    logs === undefined ? Math.log(arr[j] as number) : (logs[j] as number);
  for (let i = 0; i < n; i++) {
    const t = rowEntropy(mean.data, mean.logData, i * c, c);
    let d = 0;
    // I = (1/S)·Σ_s KL(p_s ‖ p̄): no cancellation between two large entropies, exactly 0 for identical members
    let mi = 0;
    for (let m = 0; m < s; m++) {
      const o = (m * n + i) * c;
      d += rowEntropy(data, logData, o, c);
      for (let k = 0; k < c; k++) {
        const v = data[o + k] as number;
        if (v > 0) mi += v * (lp(data, logData, o + k) - lp(mean.data, mean.logData, i * c + k));
      }
    }
    total[i] = t;
    expectedData[i] = d / s;
    // KL ≥ 0; a negative sum is rounding of order 1e-16
    mutualInformation[i] = Math.max(0, mi / s);
  }
  return { total, expectedData, mutualInformation };
}

/**
 * Model uncertainty of an ensemble: total predictive entropy split into expected data (aleatoric) uncertainty and
 * mutual information (epistemic, "knowledge" uncertainty), per example.
 *
 * **Formula.** total = H(p̄), p̄ = (1/S)·Σ_s p_s; expectedData = (1/S)·Σ_s H(p_s); mutualInformation = total −
 * expectedData = I(y; θ | x) = (1/S)·Σ_s KL(p_s ‖ p̄), evaluated in the KL form. H(p) = −Σ_k p_k ln p_k.
 *
 * **Conventions.**
 * - Natural log (nats); 0·ln 0 = 0. From logits, entropies use the exact log-softmax.
 * - Mutual information is computed as the mean KL divergence from p̄ (no cancellation of large entropies): exactly
 *   0 for identical members, clamped at 0 against rounding; total = expectedData + mutualInformation to ~1e-15.
 *   uncertainty_metrics computes it in float32 and can return small negatives (−5.9e-9 on identical members).
 *
 * **References.**
 * - Depeweg, Hernández-Lobato, Doshi-Velez & Udluft, "Decomposition of Uncertainty in Bayesian Deep Learning for
 *   Efficient and Risk-sensitive Learning", ICML 2018, arXiv:1710.07283.
 * - Malinin, Mlodozeniec & Gales, "Ensemble Distribution Distillation", ICLR 2020, arXiv:1905.00076.
 *
 * @param members [S, N, C] scores (see {@link toEnsemble}).
 * @param options ensemble input options.
 * @returns `{ total, expectedData, mutualInformation }`, each a `Float64Array` of N values in nats.
 * @throws {UMError} on invalid input (see {@link toEnsemble}).
 * @example
 * ```js
 * import { modelUncertainty } from 'uncertainty-metrics';
 * const u = modelUncertainty([[[1, 0]], [[0, 1]]]); // two confident members that disagree
 * [u.total[0], u.expectedData[0], u.mutualInformation[0]]; // ≈ [0.6931471806, 0, 0.6931471806]
 * modelUncertainty([[[0.7, 0.3]], [[0.7, 0.3]]]).mutualInformation[0]; // => 0
 * ```
 */
export function modelUncertainty(members: EnsembleScores, options: EnsembleOptions = {}): UncertaintyDecomposition {
  checkOptions('modelUncertainty', options, ENSEMBLE_KEYS);
  return decomposeUncertainty(ensembleMatrix('modelUncertainty', members, options));
}
