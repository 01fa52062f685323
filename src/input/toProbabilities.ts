import { probMatrix } from './probMatrix.js';
import type { InputOptions, ProbMatrix, Scores } from './types.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';

/**
 * Validates scores of a declared kind once and returns probabilities that every metric accepts without
 * validating again.
 *
 * **Formula.** probabilities: p_ik as given; logits: p_ik = exp(z_ik − m_i) / Σ_j exp(z_ij − m_i) with
 * m_i = max_j z_ij (the max-shifted softmax of log-sum-exp, in float64); log-probabilities: p_ik = exp(ℓ_ik);
 * binary: [1 − p_i, p_i], or [σ(−z_i), σ(z_i)] for a logit.
 *
 * **Conventions.**
 * - The kind is declared by `options.input` (default `'probs'`); it is never guessed from the values.
 * - Probabilities must lie in [0, 1] and each row must sum to 1 within `options.sumTolerance` (default 1e-3);
 *   they are used as given, never renormalised.
 * - Logits and log-probabilities may be `-Infinity` (a probability of exactly 0) but not NaN or +Infinity.
 * - A flat typed array is row-major and needs `options.numClasses`; a `Float32Array` of probabilities is kept
 *   as is (not copied), and all arithmetic downstream accumulates in float64.
 * - `binary: true` takes a vector of P(y = 1) and builds the two-column matrix [1 − p, p].
 *
 * **References.**
 * - Blanchard, Higham & Higham, "Accurately computing the log-sum-exp and softmax functions", IMA J. Numer. Anal.
 *   2021, doi:10.1093/imanum/draa038 (the shifted softmax: exp(z − m) / Σ exp(z − m)).
 *
 * @param scores `number[][]` of shape [N, C], a flat `Float32Array | Float64Array` of length N·C with
 *   `options.numClasses`, or (with `binary: true`) a vector of length N.
 * @param options declared input kind, `numClasses`, `binary`, `sumTolerance`.
 * @returns validated probabilities `{ kind: 'probabilities', data, n, numClasses, input, binary }`.
 * @throws {UMError} `UM_SHAPE` (ragged or mis-sized input), `UM_EMPTY` (no rows), `UM_NOT_FINITE`,
 *   `UM_PROB_RANGE`, `UM_ROW_SUM`, `UM_OPTION` (bad options).
 * @example
 * ```js
 * import { toProbabilities } from 'uncertainty-metrics';
 * const p = toProbabilities([[0, Math.log(3)]], { input: 'logits' });
 * Array.from(p.data); // ≈ [0.25, 0.75]
 * toProbabilities([0.9, 0.2], { binary: true }).numClasses; // => 2
 * ```
 */
export function toProbabilities(scores: Scores, options: InputOptions = {}): ProbMatrix {
  checkOptions('toProbabilities', options, INPUT_KEYS);
  return probMatrix('toProbabilities', scores, options);
}
