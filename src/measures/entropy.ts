import { fail } from '../errors/fail.js';
import { probMatrix } from '../input/probMatrix.js';
import type { InputOptions, Scores } from '../input/types.js';
import { rowEntropy } from './rowEntropy.js';
import { INPUT_KEYS, checkOptions } from '../errors/checkOptions.js';

/** Options of {@link entropy}. */
export interface EntropyOptions extends InputOptions {
  /** Logarithm base (default `Math.E`, i.e. nats; 2 gives bits). */
  base?: number;
}

/**
 * Shannon entropy of each predicted distribution.
 *
 * **Formula.** H(p_i) = −Σ_k p_ik log_b p_ik.
 *
 * **Conventions.**
 * - 0 · log 0 = 0, so exact zeros contribute nothing.
 * - Natural logarithm by default (nats); `options.base` changes the unit.
 * - Accumulated in float64.
 *
 * **References.**
 * - Shannon, "A Mathematical Theory of Communication", Bell Syst. Tech. J. 1948, doi:10.1002/j.1538-7305.1948.tb01338.x.
 *
 * @param scores [N, C] scores (see {@link toProbabilities}).
 * @param options input declaration and `base` (> 0, ≠ 1).
 * @returns `Float64Array` of length N.
 * @throws {UMError} on invalid scores, or `UM_OPTION` for an invalid base.
 * @example
 * ```js
 * import { entropy } from 'uncertainty-metrics';
 * Array.from(entropy([[0.5, 0.5], [1, 0]], { base: 2 })); // => [1, 0]
 * ```
 */
export function entropy(scores: Scores, options: EntropyOptions = {}): Float64Array {
  checkOptions('entropy', options, INPUT_KEYS, ['base']);
  const base = options.base ?? Math.E;
  if (typeof base !== 'number' || !(base > 0) || base === 1 || !Number.isFinite(base)) {
    fail('UM_OPTION', 'entropy', 'options.base', 'be a finite number > 0 and ≠ 1', { value: base });
  }
  const h = rowEntropy(probMatrix('entropy', scores, options, 2));
  if (base !== Math.E) {
    const scale = Math.log(base);
    for (let i = 0; i < h.length; i++) h[i] = (h[i] as number) / scale;
  }
  return h;
}
