import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, Scores } from '../input/types.js';
import { topLabel } from './topLabel.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';

/**
 * Predicted class of each row: the index of its largest probability.
 *
 * **Formula.** ŷ_i = argmax_k p_ik.
 *
 * **Conventions.**
 * - Ties go to the lowest class index (as `numpy.argmax`, `torch.max` and `tf.argmax`).
 *
 * **References.**
 * - Guo et al., ICML 2017, arXiv:1706.04599 (top-label prediction and confidence).
 *
 * @param scores [N, C] scores (see {@link toProbabilities}).
 * @param options input declaration.
 * @returns `Int32Array` of length N.
 * @throws {UMError} on invalid scores (see {@link toProbabilities}).
 * @example
 * ```js
 * import { predictedClass } from 'uncertainty-metrics';
 * Array.from(predictedClass([[0.2, 0.8], [0.5, 0.5]])); // => [1, 0]
 * ```
 */
export function predictedClass(scores: Scores, options: InputOptions = {}): Int32Array {
  checkOptions('predictedClass', options, INPUT_KEYS);
  return topLabel(probMatrix('predictedClass', scores, options)).predicted;
}
