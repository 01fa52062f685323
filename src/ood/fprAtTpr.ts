import { checkOptions } from '../errors/checkOptions.js';
import { fail } from '../errors/fail.js';
import { OOD_KEYS, oodInput, pooledSweep, type OodInput, type OodOptions } from './oodInput.js';

/** Options of {@link fprAtTpr}. */
export interface FprAtTprOptions extends OodOptions {
  /** Share of in-distribution samples that must be kept, in (0, 1] (default 0.95). */
  tpr?: number;
}

/**
 * False-positive rate at a given true-positive rate (FPR at 95 % TPR): the share of out-of-distribution samples
 * still accepted when the confidence threshold keeps 95 % of the in-distribution samples. Lower is better.
 *
 * **Formula.** t* = the largest threshold with TPR(t) = |{i ∈ in : s_i ≥ t}|/N_in ≥ tpr; FPR = |{j ∈ out : s_j ≥ t*}|/N_out,
 * s = confidence (−uncertainty).
 *
 * **Conventions.**
 * - In-distribution samples are the positives (kept when confident), as in Liang et al.'s ODIN and Hendrycks et al.
 * - Thresholds are the distinct values (ties never split); no interpolation between ROC points.
 * - Each side: scores ranked by `by` (default `'normalized-entropy'`) or `{ uncertainty }` / `{ confidence }` values.
 *
 * **References.**
 * - Liang, Li & Srikant, "Enhancing The Reliability of Out-of-distribution Image Detection in Neural Networks",
 *   ICLR 2018, arXiv:1706.02690.
 * - Hendrycks, Mazeika & Dietterich, "Deep Anomaly Detection with Outlier Exposure", ICLR 2019, arXiv:1812.04606.
 *
 * @param inDistribution [N_in, C] scores, or `{ uncertainty }` / `{ confidence }` values.
 * @param outOfDistribution [N_out, C] scores, or values of the same form.
 * @param options `tpr` (default 0.95), `by` and input options (scores only).
 * @returns the FPR in [0, 1].
 * @throws {UMError} on invalid input; `UM_OPTION` for a `tpr` outside (0, 1]; `UM_EMPTY` when a side is empty.
 * @example
 * ```js
 * import { fprAtTpr } from 'uncertainty-metrics';
 * // keeping both in-distribution samples needs u ≤ 0.4, which also keeps 1 of 2 OoD samples
 * fprAtTpr({ uncertainty: [0.1, 0.4] }, { uncertainty: [0.3, 0.9] }, { tpr: 1 }); // => 0.5
 * ```
 */
export function fprAtTpr(inDistribution: OodInput, outOfDistribution: OodInput, options: FprAtTprOptions = {}): number {
  const fn = 'fprAtTpr';
  checkOptions(fn, options, OOD_KEYS, ['tpr']);
  const { tpr = 0.95, ...rest } = options;
  if (typeof tpr !== 'number' || !(tpr > 0 && tpr <= 1))
    fail('UM_OPTION', fn, 'options.tpr', 'be a number in (0, 1]', { value: tpr });
  const d = oodInput(fn, inDistribution, outOfDistribution, rest);
  const s = pooledSweep(d);
  const nIn = s.totalPositive;
  const nOut = s.n - s.totalPositive;
  let tp = 0;
  let fp = 0;
  for (let b = 0; b < s.blocks; b++) {
    tp += s.positive[b] as number;
    fp += (s.count[b] as number) - (s.positive[b] as number);
    if (tp / nIn >= tpr) break;
  }
  return fp / nOut;
}
