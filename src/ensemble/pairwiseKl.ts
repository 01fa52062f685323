import { fail } from '../errors/fail.js';
import { ensembleMatrix } from '../input/ensembleMatrix.js';
import type { EnsembleMatrix, EnsembleOptions, EnsembleScores } from '../input/types.js';
import { emitWarning, type WarningOptions } from '../warnings/warnings.js';
import { pairKl } from './pairSums.js';
import { rowWeights } from './pairs.js';
import { ENSEMBLE_KEYS, WEIGHT_KEYS, checkOptions } from '../errors/checkOptions.js';
import type { WeightOptions } from '../input/weights.js';

/** Options of {@link pairwiseKl}. */
export interface PairwiseKlOptions extends EnsembleOptions, WarningOptions, WeightOptions {
  /** Clip both distributions to [clip, 1] first (uncertainty_metrics' `clip=True` uses 1e-7); default none. */
  clip?: number;
}

/** Mean KL(p_a ‖ p_b) over examples for validated members (internal kernel). */
export function klBetween(
  e: EnsembleMatrix,
  a: number,
  b: number,
  clip: number,
  w?: Float64Array,
  total = e.n,
): number {
  const { data, n, numClasses: c } = e;
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const wi = w === undefined ? 1 : (w[i] as number);
    if (wi === 0) continue;
    let row = 0;
    const oa = (a * n + i) * c;
    const ob = (b * n + i) * c;
    for (let k = 0; k < c; k++) {
      const p = Math.max(data[oa + k] as number, clip);
      const q = Math.max(data[ob + k] as number, clip);
      if (p > 0) row += p * Math.log(p / q);
    }
    sum += wi * row;
  }
  return sum / total;
}

/**
 * Average pairwise Kullback–Leibler divergence between ensemble members.
 *
 * **Formula.** (2/(S(S − 1)))·Σ_{a<b} (1/N)·Σ_i KL(p_a(x_i) ‖ p_b(x_i)), KL(p ‖ q) = Σ_k p_k ln(p_k/q_k).
 *
 * **Conventions.**
 * - Pairs a < b in member order, KL from the earlier to the later member (as uncertainty_metrics).
 * - 0·ln(0/q) = 0; p_k > 0 with q_k = 0 gives +Infinity and a `UM_W_INFINITE` warning (use `clip`).
 * - Natural log. Needs S ≥ 2.
 *
 * **References.**
 * - Fort, Hu & Lakshminarayanan, arXiv:1912.02757.
 * - google/uncertainty-metrics `average_pairwise_diversity` ('average_kl').
 *
 * @param members [S, N, C] scores (see {@link toEnsemble}).
 * @param options `clip`, `onWarning` and ensemble input options.
 * @returns the mean pairwise KL divergence in nats.
 * @throws {UMError} on invalid input or options, or `UM_SHAPE` with fewer than 2 members.
 * @example
 * ```js
 * import { pairwiseKl } from 'uncertainty-metrics';
 * pairwiseKl([[[0.5, 0.5]], [[0.9, 0.1]]]); // ≈ 0.5108256238
 * ```
 */
export function pairwiseKl(members: EnsembleScores, options: PairwiseKlOptions = {}): number {
  checkOptions('pairwiseKl', options, ENSEMBLE_KEYS, WEIGHT_KEYS, ['clip', 'onWarning']);
  const fn = 'pairwiseKl';
  const clip = options.clip ?? 0;
  if (typeof clip !== 'number' || !(clip >= 0 && clip < 1))
    fail('UM_OPTION', fn, 'options.clip', 'be a number in [0, 1)', { value: clip });
  const e = ensembleMatrix(fn, members, options);
  const { w, total } = rowWeights(fn, options.weights, e.n);
  const v = pairKl(fn, e, clip, w, total);
  if (v === Infinity) {
    emitWarning(options, {
      code: 'UM_W_INFINITE',
      fn,
      message: `${fn}: a member gives probability 0 where an earlier one does not; the KL divergence is Infinity — pass clip to bound it`,
    });
  }
  return v;
}
