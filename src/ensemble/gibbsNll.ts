import { stableMean } from '../math/pow2.js';
import { ensembleMatrix } from '../input/ensembleMatrix.js';
import { labelArray } from '../input/labelArray.js';
import type { EnsembleMatrix, EnsembleOptions, EnsembleScores, Labels } from '../input/types.js';
import { emitWarning, type WarningOptions } from '../warnings/warnings.js';
import { ENSEMBLE_KEYS, WEIGHT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { weightArray, type WeightOptions } from '../input/weights.js';

/**
 * Gibbs negative log-likelihood: the members' average NLL (the expected loss of one randomly drawn member).
 *
 * **Formula.** (1/S)·Σ_s (1/N)·Σ_i −ln p_s(y_i | x_i).
 *
 * **Conventions.**
 * - Natural log; from logits the exact log-softmax is used; an exact 0 gives Infinity and a `UM_W_INFINITE` warning.
 * - Never smaller than {@link ensembleNll}.
 * - `weights`: frequency weights per example (a weight-0 row is left out).
 *
 * **References.**
 * - google/uncertainty-metrics `gibbs_cross_entropy`.
 *
 * @param labels N integer labels.
 * @param members [S, N, C] scores (see {@link toEnsemble}).
 * @param options ensemble input options, `weights` and `onWarning`.
 * @returns the Gibbs NLL in nats.
 * @throws {UMError} on invalid input.
 * @example
 * ```js
 * import { gibbsNll } from 'uncertainty-metrics';
 * gibbsNll([0], [[[0.9, 0.1]], [[0.5, 0.5]]]); // ≈ 0.3992538481
 * ```
 */
export function gibbsNll(
  labels: Labels,
  members: EnsembleScores,
  options: EnsembleOptions & WarningOptions & WeightOptions = {},
): number {
  checkOptions('gibbsNll', options, ENSEMBLE_KEYS, WEIGHT_KEYS, ['onWarning']);
  const fn = 'gibbsNll';
  const e = ensembleMatrix(fn, members, options);
  const y = labelArray(fn, labels, e.n, e.numClasses);
  return gibbsNllOf(fn, e, y, options, weightArray(fn, options.weights, e.n));
}

/** The per-row Gibbs NLL, −(1/S)·Σ_s ln p_s(y_i | x_i), of a validated ensemble (internal; the function and state). */
export function gibbsNllRows(e: EnsembleMatrix, y: Int32Array): Float64Array {
  const { data, logData, numMembers: s, n, numClasses: c } = e;
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let v = 0;
    for (let m = 0; m < s; m++) {
      const at = (m * n + i) * c + (y[i] as number);
      v -= logData === undefined ? Math.log(data[at] as number) : (logData[at] as number);
    }
    out[i] = v / s;
  }
  return out;
}

/** The warning of an infinite Gibbs NLL (internal; the function and the state). */
export function warnInfiniteGibbs(fn: string, value: number, options: WarningOptions): void {
  if (value === Infinity)
    emitWarning(options, {
      code: 'UM_W_INFINITE',
      fn,
      message: `${fn}: a member gives probability exactly 0 to a label; the Gibbs NLL is Infinity`,
    });
}

/** Gibbs NLL of a validated ensemble and labels; warns on Infinity as `fn` (internal, shared with evaluateEnsemble). */
export function gibbsNllOf(
  fn: string,
  e: EnsembleMatrix,
  y: Int32Array,
  options: WarningOptions,
  w?: Float64Array,
): number {
  const v = stableMean(gibbsNllRows(e, y), w);
  warnInfiniteGibbs(fn, v, options);
  return v;
}
