import { labelArray } from '../input/labelArray.js';
import { probMatrix } from '../input/probMatrix.js';
import type { Labels, Scores } from '../input/types.js';
import { mean } from './brier.js';
import { nllRows, resolveNll, type NllOptions } from './nllPerExample.js';
import { INPUT_KEYS, WEIGHT_KEYS, checkOptions } from '../errors/checkOptions.js';
import { positiveRows, weightArray, type WeightOptions } from '../input/weights.js';

/**
 * Negative log-likelihood (log loss, cross-entropy) of the labels: the mean of −ln p(y | x).
 *
 * **Formula.** NLL = −(1/N)·Σ_i ln p_{i,y_i}; from logits −ln softmax(z_i)_{y_i} = LSE(z_i) − z_{i,y_i}.
 *
 * **Conventions.**
 * - Natural logarithm. No clipping and no renormalisation by default: an exact 0 gives Infinity plus a
 *   `UM_W_INFINITE` warning; `clip` bounds it explicitly. `preset: 'sklearn'` clips at machine epsilon
 *   (scikit-learn ≥ 1.5; add `renormalize: true` for 1.2–1.4).
 * - Logits and log-probabilities are used in log space (no underflow).
 *
 * **References.**
 * - Good, J. R. Stat. Soc. B 1952, doi:10.1111/j.2517-6161.1952.tb00104.x.
 * - Gneiting & Raftery, JASA 2007, doi:10.1198/016214506000001437.
 *
 * @param labels N integer labels in [0, C).
 * @param scores [N, C] scores of the declared kind.
 * @param options `clip`, `renormalize`, `precision`, `preset`, `onWarning` and input options.
 * @returns the mean NLL in nats.
 * @throws {UMError} on invalid input or options.
 * @example
 * ```js
 * import { nll } from 'uncertainty-metrics';
 * nll([0, 1], [[0.5, 0.5], [0.9, 0.1]]); // ≈ 1.4978661368
 * nll([0], [[0, 1]], { clip: 1e-15, onWarning: () => {} }); // ≈ 34.5387763949
 * ```
 */
export function nll(labels: Labels, scores: Scores, options: NllOptions & WeightOptions = {}): number {
  checkOptions('nll', options, INPUT_KEYS, WEIGHT_KEYS, ['clip', 'renormalize', 'precision', 'preset', 'onWarning']);
  const fn = 'nll';
  const p = probMatrix(fn, scores, options);
  const cfg = resolveNll(fn, options, p);
  const { p: q, y, w } = positiveRows(p, labelArray(fn, labels, p.n, p.numClasses), weightArray(fn, options.weights, p.n));
  return mean(nllRows(fn, q, y, cfg, options), w);
}
