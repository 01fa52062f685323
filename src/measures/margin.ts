import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, ProbMatrix, Scores } from '../input/types.js';

/** p_(1) − p_(2) of every row of validated probabilities (internal kernel). */
export function rowMargin(p: ProbMatrix): Float64Array {
  const { data, n, numClasses: c } = p;
  const out = new Float64Array(n);
  for (let i = 0, o = 0; i < n; i++, o += c) {
    let first = -Infinity;
    let second = -Infinity;
    for (let k = 0; k < c; k++) {
      const v = data[o + k] as number;
      if (v > first) {
        second = first;
        first = v;
      } else if (v > second) second = v;
    }
    out[i] = first - second;
  }
  return out;
}

/**
 * Margin of each prediction: how far the top class is ahead of the runner-up.
 *
 * **Formula.** margin_i = p_i(1) − p_i(2), the largest minus the second-largest probability of row i.
 *
 * **Conventions.**
 * - Ties at the top give 0; a one-hot row gives 1. Values are float64 even for `Float32Array` input.
 * - Scores of kind `options.input` are turned into probabilities first (softmax for logits).
 *
 * **References.**
 * - Scheffer, Decomain & Wrobel, "Active Hidden Markov Models for Information Extraction", IDA 2001
 *   (margin sampling), doi:10.1007/3-540-44816-0_31.
 *
 * @param scores [N, C] scores (see {@link toProbabilities}).
 * @param options input declaration.
 * @returns `Float64Array` of length N with values in [0, 1].
 * @throws {UMError} on invalid scores (see {@link toProbabilities}).
 * @example
 * ```js
 * import { margin } from 'uncertainty-metrics';
 * Array.from(margin([[0.5, 0.3, 0.2], [0.4, 0.4, 0.2]])); // ≈ [0.2, 0]
 * ```
 */
export function margin(scores: Scores, options: InputOptions = {}): Float64Array {
  checkOptions('margin', options, INPUT_KEYS);
  return rowMargin(probMatrix('margin', scores, options));
}
