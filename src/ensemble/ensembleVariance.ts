import { fail } from '../errors/fail.js';
import { ensembleMatrix } from '../input/ensembleMatrix.js';
import type { EnsembleOptions, EnsembleScores } from '../input/types.js';
import { ENSEMBLE_KEYS, checkOptions } from '../errors/checkOptions.js';

/** Largest eigenvalue of a symmetric m × m matrix (row-major, overwritten) by cyclic Jacobi rotations. */
export function largestEigenvalue(a: Float64Array, m: number): number {
  for (let sweep = 0; sweep < 100; sweep++) {
    let off = 0;
    for (let p = 0; p < m; p++) for (let q = p + 1; q < m; q++) off += (a[p * m + q] as number) ** 2;
    if (off < 1e-300) break;
    for (let p = 0; p < m; p++) {
      for (let q = p + 1; q < m; q++) {
        const apq = a[p * m + q] as number;
        if (apq === 0) continue;
        const app = a[p * m + p] as number;
        const aqq = a[q * m + q] as number;
        const theta = (aqq - app) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const cs = 1 / Math.sqrt(t * t + 1);
        const sn = t * cs;
        for (let k = 0; k < m; k++) {
          const akp = a[k * m + p] as number;
          const akq = a[k * m + q] as number;
          a[k * m + p] = cs * akp - sn * akq;
          a[k * m + q] = sn * akp + cs * akq;
        }
        for (let k = 0; k < m; k++) {
          const apk = a[p * m + k] as number;
          const aqk = a[q * m + k] as number;
          a[p * m + k] = cs * apk - sn * aqk;
          a[q * m + k] = sn * apk + cs * aqk;
        }
      }
    }
  }
  let max = -Infinity;
  for (let k = 0; k < m; k++) max = Math.max(max, a[k * m + k] as number);
  return Math.max(0, max);
}

/**
 * Ensemble variance of each example: the matrix 2-norm (largest eigenvalue) of the covariance of the members'
 * predicted probability vectors — the uncertainty score of the Top-1 binning paper.
 *
 * **Formula.** Σ_i = (1/(S − ddof))·Σ_s (p_s(x_i) − p̄(x_i))(p_s(x_i) − p̄(x_i))ᵀ (C × C); U_i = ‖Σ_i‖₂ = λ_max(Σ_i).
 *
 * **Conventions.**
 * - Covariance of probability vectors (not logits), sample covariance by default (ddof = 1, as `numpy.cov`);
 *   `ddof: 0` gives the population covariance.
 * - λ_max is computed on the smaller of the S × S Gram matrix and the C × C covariance (same nonzero spectrum), by
 *   Jacobi rotations. Needs S ≥ 2 with ddof = 1.
 *
 * **References.**
 * - Oberman, Finlay, Iannantuono & Salvador, "Calibrated Top-1 Uncertainty estimates for classification by score
 *   based models", arXiv:1903.09215, §2.2.
 *
 * @param members [S, N, C] scores (see {@link toEnsemble}).
 * @param options `ddof` (0 or 1, default 1) and ensemble input options.
 * @returns `Float64Array` of N variances, ≥ 0.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { ensembleVariance } from 'uncertainty-metrics';
 * // two members (1, 0) and (0, 1): Σ = [[½, −½], [−½, ½]] with ddof 1, largest eigenvalue 1
 * Array.from(ensembleVariance([[[1, 0]], [[0, 1]]])); // ≈ [1]
 * ```
 */
export function ensembleVariance(
  members: EnsembleScores,
  options: EnsembleOptions & { ddof?: 0 | 1 } = {},
): Float64Array {
  checkOptions('ensembleVariance', options, ENSEMBLE_KEYS, ['ddof']);
  const fn = 'ensembleVariance';
  const ddof = options.ddof ?? 1;
  if (ddof !== 0 && ddof !== 1) fail('UM_OPTION', fn, 'options.ddof', 'be 0 or 1', { value: ddof });
  const e = ensembleMatrix(fn, members, options);
  const { data, numMembers: s, n, numClasses: c } = e;
  if (s - ddof < 1)
    fail('UM_SHAPE', fn, 'members', `hold at least ${ddof + 1} members for ddof = ${ddof}`, { value: s });
  const out = new Float64Array(n);
  const centred = new Float64Array(s * c);
  const useGram = s <= c;
  const m = useGram ? s : c;
  const mat = new Float64Array(m * m);
  for (let i = 0; i < n; i++) {
    for (let k = 0; k < c; k++) {
      let mean = 0;
      for (let a = 0; a < s; a++) mean += data[(a * n + i) * c + k] as number;
      mean /= s;
      for (let a = 0; a < s; a++) centred[a * c + k] = (data[(a * n + i) * c + k] as number) - mean;
    }
    for (let p = 0; p < m; p++) {
      for (let q = p; q < m; q++) {
        let dot = 0;
        if (useGram) for (let k = 0; k < c; k++) dot += (centred[p * c + k] as number) * (centred[q * c + k] as number);
        else for (let a = 0; a < s; a++) dot += (centred[a * c + p] as number) * (centred[a * c + q] as number);
        mat[p * m + q] = dot / (s - ddof);
        mat[q * m + p] = dot / (s - ddof);
      }
    }
    out[i] = largestEigenvalue(mat, m);
  }
  return out;
}
