import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, Scores } from '../input/types.js';
import { topLabel } from './topLabel.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';

/**
 * Confidence of each prediction: the largest predicted probability of its row.
 *
 * **Formula.** conf_i = max_k p_ik.
 *
 * **Conventions.**
 * - Scores of kind `options.input` are turned into probabilities first (softmax for logits).
 * - Values are float64 even for `Float32Array` input.
 *
 * **References.**
 * - Guo, Pleiss, Sun & Weinberger, "On Calibration of Modern Neural Networks", ICML 2017, arXiv:1706.04599.
 *
 * @param scores [N, C] scores (see {@link toProbabilities}).
 * @param options input declaration.
 * @returns `Float64Array` of length N.
 * @throws {UMError} on invalid scores (see {@link toProbabilities}).
 * @example
 * ```js
 * import { confidence } from 'uncertainty-metrics';
 * Array.from(confidence([[0.2, 0.8], [0.5, 0.5]])); // => [0.8, 0.5]
 * ```
 */
export function confidence(scores: Scores, options: InputOptions = {}): Float64Array {
  checkOptions('confidence', options, INPUT_KEYS);
  return topLabel(probMatrix('confidence', scores, options)).confidence;
}
