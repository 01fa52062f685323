import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, ProbMatrix, Scores } from '../input/types.js';
import { rowEntropy } from './rowEntropy.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';

/** Normalized entropy of validated probabilities (internal kernel). */
export function rowNormalizedEntropy(p: ProbMatrix): Float64Array {
  const h = rowEntropy(p);
  const scale = Math.log(p.numClasses);
  for (let i = 0; i < h.length; i++) h[i] = (h[i] as number) / scale;
  return h;
}

/**
 * Normalized entropy of each predicted distribution: the uncertainty measure of the UCE, in [0, 1].
 *
 * **Formula.** H̃(p_i) = −(1 / ln C) Σ_k p_ik ln p_ik.
 *
 * **Conventions.**
 * - 0 · ln 0 = 0 (no epsilon is added, unlike Laves et al.'s code, which uses ln(p + 1e-16)).
 * - Not clamped: rows that sum to 1 only within rounding can give values a few ulps above 1.
 * - C is the number of columns, including classes that never occur in the labels.
 *
 * **References.**
 * - Laves, Ihler, Kortmann & Ortmaier, "Well-calibrated Model Uncertainty with Temperature Scaling for
 *   Dropout Variational Inference", NeurIPS 2019 Bayesian DL workshop, arXiv:1909.13550, eq. 6.
 * - "Uncertainty Calibration Error: A New Metric for Multi-Class Classification", ICLR 2020 submission
 *   (Laves et al.), eq. 11.
 *
 * @param scores [N, C] scores (see {@link toProbabilities}).
 * @param options input declaration.
 * @returns `Float64Array` of length N with values in [0, 1].
 * @throws {UMError} on invalid scores (see {@link toProbabilities}).
 * @example
 * ```js
 * import { normalizedEntropy } from 'uncertainty-metrics';
 * Array.from(normalizedEntropy([[0.25, 0.25, 0.25, 0.25], [1, 0, 0, 0]])); // => [1, 0]
 * ```
 */
export function normalizedEntropy(scores: Scores, options: InputOptions = {}): Float64Array {
  checkOptions('normalizedEntropy', options, INPUT_KEYS);
  return rowNormalizedEntropy(probMatrix('normalizedEntropy', scores, options, 2));
}
